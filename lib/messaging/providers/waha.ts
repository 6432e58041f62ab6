import { createHmac, timingSafeEqual } from "node:crypto";
import { gatewayJson } from "./gateway-http";
import type { ConnectionState, Credentials, InboundEvent, MediaDescriptor, ProviderAdapter, ProviderLabel, ProviderMessage } from "./types";

/** WAHA session statuses → spec connection states. STARTING is not usable yet, as a QR scan is not. */
const STATUS: Record<string, ConnectionState> = {
  WORKING: "connected",
  SCAN_QR_CODE: "awaiting_auth",
  STARTING: "awaiting_auth",
  FAILED: "error",
  STOPPED: "disabled",
};

export function wahaConnectionState(status: unknown): ConnectionState {
  return STATUS[String(status)] ?? "error";
}

const seg = encodeURIComponent;

/**
 * WAHA's documented HTTP API with `X-Api-Key`. Chat ids are always encoded as one path segment.
 * Label mutation (`setChatLabels` = `PUT /api/{session}/labels/chats/{chatId}` with `{labels:[{id}]}`,
 * `createLabel` = `POST /api/{session}/labels`, `deleteLabel` = `DELETE /api/{session}/labels/{id}`)
 * is used by the label verbs of `lib/messaging/labels/mutate-labels.ts` (the tool interface).
 */
export function wahaAdapter(baseUrl: string, creds: Credentials): ProviderAdapter {
  const base = baseUrl.replace(/\/+$/, "");
  const session = seg(creds.sessionName);
  const h = { "x-api-key": creds.apiKey };
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body: unknown, signal: AbortSignal) =>
    gatewayJson(method, base + path, h, body, signal);
  return {
    supportsHistory: true,
    supportsTemplates: false,
    async status(signal) {
      const s = (await call("GET", `/api/sessions/${session}`, undefined, signal)) as { status?: string } | null;
      return wahaConnectionState(s?.status);
    },
    async history(chatId, { limit, lteSeconds }, signal) {
      const q = new URLSearchParams({ limit: String(limit), downloadMedia: "false" });
      if (lteSeconds !== undefined) q.set("filter.timestamp.lte", String(lteSeconds));
      const list = await call("GET", `/api/${session}/chats/${seg(chatId)}/messages?${q}`, undefined, signal);
      if (!Array.isArray(list)) return [];
      return list.map(toMessage).filter((m): m is ProviderMessage => m !== null);
    },
    async sendText(chatId, text, signal) {
      const r = (await call("POST", "/api/sendText", { session: creds.sessionName, chatId, text }, signal)) as { id?: unknown } | null;
      return { messageId: messageIdOf(r?.id) };
    },
    async sendTemplate() {
      throw new Error("WAHA channels cannot send templates");
    },
    async labels(signal) {
      const list = await call("GET", `/api/${session}/labels`, undefined, signal);
      return Array.isArray(list) ? list.map(toLabel).filter((l): l is ProviderLabel => l !== null) : [];
    },
    async chatLabels(chatId, signal) {
      const list = await call("GET", `/api/${session}/labels/chats/${seg(chatId)}`, undefined, signal);
      return Array.isArray(list) ? list.map((l) => String((l as { id?: unknown }).id ?? "")).filter(Boolean) : [];
    },
    supportsLabels: true,
    async setChatLabels(chatId, labelIds, signal) {
      await call("PUT", `/api/${session}/labels/chats/${seg(chatId)}`, { labels: labelIds.map((id) => ({ id })) }, signal);
    },
    async createLabel(label, signal) {
      const r = toLabel(await call("POST", `/api/${session}/labels`, { name: label.name, ...(label.colorHex ? { colorHex: label.colorHex } : {}) }, signal));
      if (!r) throw new Error("the gateway's answer has no label");
      return r;
    },
    async deleteLabel(labelId, signal) {
      await call("DELETE", `/api/${session}/labels/${seg(labelId)}`, undefined, signal);
    },
    async phoneToLid(chatId, signal) {
      const digits = /^(\d{6,20})@c\.us$/.exec(chatId)?.[1];
      if (!digits) return null;
      const r = (await call("GET", `/api/${session}/lids/pn/${digits}`, undefined, signal)) as { lid?: unknown } | null;
      const lid = typeof r?.lid === "string" ? r.lid : null;
      return lid && /^\d{1,30}@lid$/.test(lid) ? lid : null;
    },
    async lidToPhone(lid, signal) {
      const r = (await call("GET", `/api/${session}/lids/${seg(lid)}`, undefined, signal)) as { pn?: unknown } | null;
      const pn = typeof r?.pn === "string" ? r.pn : null;
      return pn && /^\d{6,20}@c\.us$/.test(pn) ? pn : null;
    },
  };
}

/** WAHA message ids are strings (`true_<chat>_<id>`) or `{_serialized}` objects depending on the engine. */
function messageIdOf(id: unknown): string {
  if (typeof id === "string") return id;
  if (id && typeof id === "object" && typeof (id as { _serialized?: unknown })._serialized === "string") return (id as { _serialized: string })._serialized;
  throw new Error("the gateway's answer has no message id");
}

function mediaOf(m: Record<string, unknown>): MediaDescriptor | null {
  if (!m.hasMedia) return null;
  const media = (m.media ?? {}) as Record<string, unknown>;
  const mime = typeof media.mimetype === "string" ? media.mimetype : null;
  const kind = mime ? mime.split("/")[0] : typeof m.type === "string" ? m.type : "file";
  // We ask with downloadMedia=false: the bytes stay on the phone; "available" says the gateway still has them.
  return { kind: ["image", "video", "audio"].includes(kind) ? kind : "document", mimeType: mime, available: Boolean(media.url) || m.hasMedia === true };
}

export function toMessage(raw: unknown): ProviderMessage | null {
  if (!raw || typeof raw !== "object") return null;
  const m = raw as Record<string, unknown>;
  let id: string;
  try {
    id = messageIdOf(m.id);
  } catch {
    return null;
  }
  const ts = Number(m.timestamp);
  if (!Number.isFinite(ts)) return null;
  const data = (m._data ?? {}) as Record<string, unknown>;
  const push = typeof m.pushName === "string" ? m.pushName : typeof data.notifyName === "string" ? data.notifyName : null;
  const media = mediaOf(m);
  return {
    id,
    timestamp: Math.floor(ts),
    fromMe: m.fromMe === true,
    text: typeof m.body === "string" ? m.body : null,
    pushName: push,
    type: media ? media.kind : "text",
    media,
  };
}

function toLabel(raw: unknown): ProviderLabel | null {
  if (!raw || typeof raw !== "object") return null;
  const l = raw as Record<string, unknown>;
  if (l.id === undefined || typeof l.name !== "string") return null;
  return { id: String(l.id), name: l.name, color: typeof l.colorHex === "string" ? l.colorHex : typeof l.color === "string" ? l.color : null };
}

/** `X-Webhook-Hmac`: hex HMAC-SHA512 of the exact body (`X-Webhook-Hmac-Algorithm: sha512`). */
export function verifyWahaSignature(secret: string, headers: Headers, raw: Buffer): boolean {
  const alg = (headers.get("x-webhook-hmac-algorithm") ?? "sha512").toLowerCase();
  if (alg !== "sha512") return false;
  const sent = headers.get("x-webhook-hmac")?.trim().toLowerCase() ?? "";
  const expected = createHmac("sha512", secret).update(raw).digest("hex");
  return sent.length === expected.length && timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/** WAHA's `{event, session, payload}` into the events the service acts on. */
export function parseWahaWebhook(body: Record<string, unknown>): InboundEvent[] {
  const p = (body.payload ?? {}) as Record<string, unknown>;
  switch (body.event) {
    case "message":
    case "message.any": {
      const message = toMessage(p);
      if (!message) return [];
      // Only a string names a chat: a null or an object would become the chat "null" or "[object Object]".
      const raw = message.fromMe ? p.to : p.from;
      const chatId = typeof raw === "string" ? raw : typeof raw === "number" ? String(raw) : "";
      if (!chatId) return [];
      return [{ type: "message", chatId, fromMe: message.fromMe, message }];
    }
    case "message.ack":
      return typeof p.id === "string" ? [{ type: "ack", messageId: p.id }] : [];
    case "session.status":
      return [{ type: "session.status", state: wahaConnectionState(p.status) }];
    case "label.upsert": {
      const label = toLabel(p);
      return label ? [{ type: "label.upsert", label, deleted: p.deleted === true }] : [];
    }
    case "label.chat.added":
    case "label.chat.deleted":
      return typeof p.chatId === "string" && p.labelId !== undefined
        ? [{ type: "label.chat", chatId: p.chatId, labelId: String(p.labelId), added: body.event === "label.chat.added" }]
        : [];
    default:
      return [];
  }
}
