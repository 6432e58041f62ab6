import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../../db/client";
import { messagingChannels, type MessagingChannelRow } from "../../../db/schema";
import type { IntegrationActor } from "../../context/actor";
import type { Ctx } from "../../context/verb-context";
import { notFound } from "../../errors/domain-errors";
import { unseal } from "../secret-box";

/** A provider gateway calling the webhook of one messaging channel, with the channel's opened HMAC secret. */
export type GatewayActor = IntegrationActor & { integration: "messaging_gateway"; channel: MessagingChannelRow; secret: string };
export type GatewayCtx = Ctx<GatewayActor>;

/**
 * Channel and opened HMAC secret by token for a few seconds: a busy number posts many webhooks a
 * second, and a deleted channel or a changed secret is seen within the TTL.
 */
const channels = new LRUCache<string, { channel: MessagingChannelRow; secret: string }>({ max: 5000, ttl: 5000 });

/** The context of a gateway's call to `/api/webhooks/messaging/{channelToken}` (404 when the token names no channel). */
export async function gatewayCaller(db: DbOrTx, token: string): Promise<GatewayCtx> {
  if (!/^msg_[A-Za-z0-9_-]{32}$/.test(token)) throw notFound("Unknown messaging channel.");
  let hit = channels.get(token);
  if (!hit) {
    const [channel] = await db.select().from(messagingChannels).where(eq(messagingChannels.channelToken, token)).limit(1);
    if (!channel) throw notFound("Unknown messaging channel.");
    hit = { channel, secret: unseal(channel.webhookSecret) };
    channels.set(token, hit);
  }
  const { channel, secret } = hit;
  return {
    db,
    tenantId: channel.tenantId,
    actor: { kind: "integration", integration: "messaging_gateway", id: channel.id, tenantId: channel.tenantId, channel, secret },
  };
}
