import { createHmac, timingSafeEqual } from "node:crypto";
import { GatewayError, gatewayJson } from "./gateway-http";
import type { ConnectionState, Credentials, InboundEvent, ProviderAdapter, ProviderMessage } from "./types";
import { withoutLabels } from "./without-labels";

/**
 * The phone number's `status` in the Graph API as our connection state: sending works while it is
 * connected (also when flagged for quality or rate limited); a number still being registered or
 * verified awaits its owner; banned, restricted, disconnected, deleted or moved numbers cannot
 * send. An answer without the field (an older API version) or with `UNKNOWN` proves only that the
 * number exists: connected, as before this check read the field.
 */
export function cloudConnectionState(status: unknown): ConnectionState {
  switch (typeof status === "string" ? status.toUpperCase() : undefined) {
    case undefined:
    case "UNKNOWN":
    case "CONNECTED":
    case "FLAGGED":
    case "RATE_LIMITED":
      return "connected";
    case "PENDING":
    case "UNVERIFIED":
      return "awaiting_auth";
    default:
      return "error";
  }
}

/**
 * The WhatsApp Cloud API (Graph API): `apiKey` is the access token, `sessionName` the phone number
 * id. The Cloud API keeps no readable message history, so `supportsHistory` is false and detail
 * reads answer `feed_not_supported_on_channel`; it sends approved templates.
 */
export function cloudAdapter(baseUrl: string, creds: Credentials): ProviderAdapter {
  const base = baseUrl.replace(/\/+$/, "");
  const phone = encodeURIComponent(creds.sessionName);
  const h = { authorization: `Bearer ${creds.apiKey}` };
  const to = (chatId: string) => chatId.split("@")[0];
  const send = async (body: Record<string, unknown>, signal: AbortSignal) => {
    const r = (await gatewayJson("POST", `${base}/${phone}/messages`, h, { messaging_product: "whatsapp", ...body }, signal)) as {
      messages?: { id?: string }[];
    } | null;
    const id = r?.messages?.[0]?.id;
    if (typeof id !== "string") throw new Error("the Cloud API's answer has no message id");
    return { messageId: id };
  };
  return {
    supportsHistory: false,
    supportsTemplates: true,
    async status(signal) {
      try {
        const r = (await gatewayJson("GET", `${base}/${phone}?fields=status`, h, undefined, signal)) as { status?: unknown } | null;
        return cloudConnectionState(r?.status);
      } catch (err) {
        // Graph answers 401 (error code 190) to an expired or revoked access token: it needs a new
        // token, not a retry. A 403 (a missing permission, a number of another account) stays an error.
        if (err instanceof GatewayError && err.status === 401) return "expired";
        throw err;
      }
    },
    async history() {
      return [];
    },
    sendText: (chatId, text, signal) => send({ to: to(chatId), type: "text", text: { body: text } }, signal),
    sendTemplate: (chatId, t, signal) => send({ to: to(chatId), type: "template", template: { name: t.name, language: { code: t.language } } }, signal),
    ...withoutLabels("WhatsApp Cloud"),
  };
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body with the app secret>`. */
export function verifyCloudSignature(secret: string, headers: Headers, raw: Buffer): boolean {
  const sent =
    headers
      .get("x-hub-signature-256")
      ?.trim()
      .replace(/^sha256=/i, "")
      .toLowerCase() ?? "";
  const expected = createHmac("sha256", secret).update(raw).digest("hex");
  return sent.length === expected.length && timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/** Cloud webhooks: `entry[].changes[].value` with `messages` (and their `contacts`) and `statuses`. */
export function parseCloudWebhook(body: Record<string, unknown>): InboundEvent[] {
  const out: InboundEvent[] = [];
  for (const entry of asArray(body.entry)) {
    for (const change of asArray((entry as Record<string, unknown>).changes)) {
      const value = ((change as Record<string, unknown>).value ?? {}) as Record<string, unknown>;
      const names = new Map(asArray(value.contacts).map((c) => [String((c as any).wa_id), (c as any).profile?.name as string | undefined]));
      for (const raw of asArray(value.messages)) {
        const m = raw as Record<string, any>;
        if (typeof m.id !== "string" || typeof m.from !== "string") continue;
        const type = String(m.type ?? "text");
        const mediaBody = ["image", "video", "audio", "document"].includes(type) ? m[type] : null;
        const message: ProviderMessage = {
          id: m.id,
          timestamp: Math.floor(Number(m.timestamp) || Date.now() / 1000),
          fromMe: false,
          text: type === "text" ? String(m.text?.body ?? "") : typeof mediaBody?.caption === "string" ? mediaBody.caption : null,
          pushName: names.get(m.from) ?? null,
          type: mediaBody ? type : "text",
          media: mediaBody ? { kind: type, mimeType: typeof mediaBody.mime_type === "string" ? mediaBody.mime_type : null, available: true } : null,
        };
        out.push({ type: "message", chatId: `${m.from}@c.us`, fromMe: false, message });
      }
      for (const s of asArray(value.statuses)) if (typeof (s as any).id === "string") out.push({ type: "ack", messageId: (s as any).id });
    }
  }
  return out;
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
