import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../../db/client";
import { messagingChannels, messagingInboundEvents, type MessagingChannelRow } from "../../../db/schema";
import { DomainError, invalid, notFound, unauthorized } from "../../errors/domain-errors";
import { readCappedBody } from "../../http/read-json";
import { sendJobEvent } from "../../jobs/dispatch";
import { verifyWahaSignature } from "../providers/waha";
import { verifyCloudSignature } from "../providers/whatsapp-cloud";
import { unseal } from "../secret-box";
import { messagingEventsReceived } from "./job";

export const MAX_WEBHOOK_BYTES = 1_000_000;

/**
 * Channel and opened HMAC secret by token for a few seconds: a busy number posts many webhooks a
 * second, and a deleted channel or a changed secret is seen within the TTL.
 */
const channels = new LRUCache<string, { channel: MessagingChannelRow; secret: string }>({ max: 5000, ttl: 5000 });

async function channelByToken(db: DbOrTx, token: string) {
  if (!/^msg_[A-Za-z0-9_-]{32}$/.test(token)) throw notFound("Unknown messaging channel.");
  const hit = channels.get(token);
  if (hit) return hit;
  const [channel] = await db.select().from(messagingChannels).where(eq(messagingChannels.channelToken, token)).limit(1);
  if (!channel) throw notFound("Unknown messaging channel.");
  const entry = { channel, secret: unseal(channel.webhookSecret) };
  channels.set(token, entry);
  return entry;
}

export function forgetChannelToken(token: string): void {
  channels.delete(token);
}

/**
 * `POST /api/webhooks/messaging/{channelToken}`: the gateway's HMAC over the exact bytes is
 * verified first (WAHA `X-Webhook-Hmac`, Cloud `X-Hub-Signature-256`), the event is stored, and only
 * then do we answer 200; conversations and events are written by the `process-messaging-events` job.
 */
export async function receiveMessagingWebhook(db: DbOrTx, token: string, req: Request): Promise<{ ok: true; id: string }> {
  const { channel, secret } = await channelByToken(db, token);
  const raw = await readCappedBody(req, MAX_WEBHOOK_BYTES, () => new DomainError("too_large", "payload_too_large", `The webhook is larger than ${MAX_WEBHOOK_BYTES} bytes.`));
  const verified = channel.provider === "whatsapp_cloud" ? verifyCloudSignature(secret, req.headers, raw) : verifyWahaSignature(secret, req.headers, raw);
  if (!verified) {
    throw unauthorized(
      channel.provider === "whatsapp_cloud"
        ? "Invalid or missing X-Hub-Signature-256 (sha256=<hex HMAC-SHA256 of the body with the channel's HMAC secret>)."
        : "Invalid or missing X-Webhook-Hmac (hex HMAC-SHA512 of the body with the channel's HMAC secret, X-Webhook-Hmac-Algorithm: sha512).",
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalid("The body is not valid JSON.", "invalid_json");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object.", "invalid_json");
  const b = body as Record<string, unknown>;
  const event = channel.provider === "whatsapp_cloud" ? `cloud.${String(b.object ?? "unknown")}` : String(b.event ?? "unknown");
  const [row] = await db
    .insert(messagingInboundEvents)
    .values({ tenantId: channel.tenantId, channelId: channel.id, event: event.slice(0, 100), body: raw.toString("utf8") })
    .returning({ id: messagingInboundEvents.id });
  sendJobEvent(messagingEventsReceived, {});
  return { ok: true, id: row.id };
}

/** Cloud API subscription check: `hub.verify_token` must be the channel's HMAC secret; echoes `hub.challenge`. */
export async function verifyCloudSubscription(db: DbOrTx, token: string, url: URL): Promise<string> {
  const { channel, secret } = await channelByToken(db, token);
  const p = url.searchParams;
  if (channel.provider !== "whatsapp_cloud" || p.get("hub.mode") !== "subscribe" || p.get("hub.verify_token") !== secret) {
    throw unauthorized("Subscription check refused: hub.verify_token must be the channel's HMAC secret.");
  }
  return (p.get("hub.challenge") ?? "").slice(0, 200);
}
