import { z } from "zod";
import { messagingInboundEvents } from "../../../db/schema";
import { invalid, unauthorized } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import type { GatewayCtx } from "./gateway-caller";
import { messagingEventsReceived } from "./job";

export const MAX_WEBHOOK_BYTES = 1_000_000;

/** The gateway's 200: the stored event's id. */
export const GatewayEventStoredSchema = z.object({ ok: z.literal(true), id: z.uuid() });

/**
 * A gateway's event, already authenticated: stored as sent, then the `process-messaging-events`
 * job writes conversations and events from it. Only a JSON object is stored.
 */
export async function storeGatewayEvent(ctx: GatewayCtx, raw: Buffer): Promise<z.infer<typeof GatewayEventStoredSchema>> {
  const { channel } = ctx.actor;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalid("The body is not valid JSON.", "invalid_json");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object.", "invalid_json");
  const b = body as Record<string, unknown>;
  const graph = channel.provider === "whatsapp_cloud" ? "cloud" : channel.provider === "meta" ? "meta" : null;
  const event = graph ? `${graph}.${String(b.object ?? "unknown")}` : String(b.event ?? "unknown");
  const [row] = await ctx.db
    .insert(messagingInboundEvents)
    .values({ tenantId: ctx.tenantId, channelId: channel.id, event: event.slice(0, 100), body: raw.toString("utf8") })
    .returning({ id: messagingInboundEvents.id });
  sendJobEvent(messagingEventsReceived, {});
  return { ok: true, id: row.id };
}

/** Cloud API subscription check: `hub.verify_token` must be the channel's HMAC secret; answers `hub.challenge`. */
export function cloudSubscriptionChallenge(ctx: GatewayCtx, q: { mode: string | null; verifyToken: string | null; challenge: string | null }): string {
  // Graph (WhatsApp Cloud, Instagram, Messenger) subscriptions only.
  if (
    (ctx.actor.channel.provider !== "whatsapp_cloud" && ctx.actor.channel.provider !== "meta") ||
    q.mode !== "subscribe" ||
    q.verifyToken !== ctx.actor.secret
  ) {
    throw unauthorized("Subscription check refused: hub.verify_token must be the channel's HMAC secret.");
  }
  return (q.challenge ?? "").slice(0, 200);
}
