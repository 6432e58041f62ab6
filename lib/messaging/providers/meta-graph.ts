import { GatewayError, gatewayJson } from "./gateway-http";
import type { Credentials, InboundEvent, ProviderAdapter, ProviderMessage } from "./types";
import { withoutLabels } from "./without-labels";

/**
 * Instagram and Messenger through Meta's Graph API, one adapter for both (the Send API and the
 * webhooks have the same shape): `apiKey` is the Page access token, `sessionName` the Page id
 * (Messenger) or the Instagram professional account id (Instagram). What it shares with the
 * WhatsApp Cloud adapter: the guarded JSON calls (`gatewayJson`), Bearer auth, a 401 read as an
 * expired token, `X-Hub-Signature-256` webhooks (`verifyCloudSignature`) and the `hub.challenge`
 * subscription check. Chat ids are the page-scoped user ids (PSID / IGSID). Graph keeps no history
 * we read here, so `supportsHistory` is false (as Cloud), and there are no labels or templates.
 */
export function metaAdapter(baseUrl: string, creds: Credentials): ProviderAdapter {
  const base = baseUrl.replace(/\/+$/, "");
  const account = encodeURIComponent(creds.sessionName);
  const h = { authorization: `Bearer ${creds.apiKey}` };
  return {
    supportsHistory: false,
    supportsTemplates: false,
    async status(signal) {
      try {
        const r = (await gatewayJson("GET", `${base}/${account}?fields=id,name`, h, undefined, signal)) as { id?: unknown } | null;
        return r && r.id !== undefined ? "connected" : "error";
      } catch (err) {
        // Graph answers 401 (code 190) to an expired or revoked token: it needs a new one, not a retry.
        if (err instanceof GatewayError && err.status === 401) return "expired";
        throw err;
      }
    },
    async history() {
      return [];
    },
    async sendText(chatId, text, signal) {
      // `RESPONSE`: an answer within the 24-hour window the person opened by writing to the page.
      const r = (await gatewayJson(
        "POST",
        `${base}/${account}/messages`,
        h,
        { recipient: { id: chatId }, messaging_type: "RESPONSE", message: { text } },
        signal,
      )) as { message_id?: unknown } | null;
      if (typeof r?.message_id !== "string") throw new Error("the Graph API's answer has no message id");
      return { messageId: r.message_id };
    },
    async sendTemplate() {
      throw new Error("Instagram and Messenger channels cannot send templates");
    },
    ...withoutLabels("Instagram and Messenger"),
  };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const KINDS = new Set(["image", "video", "audio"]);

/**
 * Messenger (`object: "page"`) and Instagram (`object: "instagram"`) webhooks:
 * `entry[].messaging[]` with `sender.id`, `recipient.id`, `timestamp` (milliseconds) and
 * `message: {mid, text, attachments[{type}], is_echo}`. An echo is our own message (sent from the
 * page inbox or through us): the chat is its recipient. Deliveries, reads, reactions and postbacks
 * carry no message and are stored only.
 */
export function parseMetaWebhook(body: Record<string, unknown>): InboundEvent[] {
  const out: InboundEvent[] = [];
  for (const entry of asArray(body.entry)) {
    for (const raw of asArray((entry as Record<string, unknown>).messaging)) {
      const e = raw as Record<string, any>;
      const m = e.message as Record<string, any> | undefined;
      if (!m || typeof m.mid !== "string" || m.is_deleted === true) continue;
      const fromMe = m.is_echo === true;
      const chat = fromMe ? e.recipient?.id : e.sender?.id;
      if (typeof chat !== "string" && typeof chat !== "number") continue;
      const first = asArray(m.attachments)[0] as Record<string, any> | undefined;
      const kind = first ? (KINDS.has(String(first.type)) ? String(first.type) : "document") : null;
      const ms = Number(e.timestamp);
      const message: ProviderMessage = {
        id: m.mid,
        timestamp: Math.floor((Number.isFinite(ms) && ms > 0 ? ms : Date.now()) / 1000),
        fromMe,
        text: typeof m.text === "string" ? m.text : null,
        pushName: null,
        type: kind ?? "text",
        // Attachment URLs are signed CDN links: never kept or passed on (descriptors only).
        media: kind ? { kind, mimeType: null, available: true } : null,
      };
      out.push({ type: "message", chatId: String(chat), fromMe, message });
    }
  }
  return out;
}
