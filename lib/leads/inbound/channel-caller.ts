import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../../db/client";
import { marketingChannelInstances, type MarketingChannelInstanceRow } from "../../../db/schema";
import type { IntegrationActor } from "../../context/actor";
import type { Ctx } from "../../context/verb-context";
import { notFound } from "../../errors/domain-errors";

/**
 * A marketing channel calling our webhooks, identified by the path token of its URL: the actor
 * of the lead intake. `hinted`: the row came from this process's hint cache, not from the
 * database, so the verb must only act if the channel is still as the hint says.
 */
export type ChannelActor = IntegrationActor & { integration: "marketing_channel"; channel: MarketingChannelInstanceRow; hinted: boolean };
export type ChannelCtx = Ctx<ChannelActor>;

/**
 * Channels recently seen, by path token: a hint that saves the channel's read on most posts. A
 * hint is never trusted on its own: the lead is stored only if the channel still has that token,
 * is active and has the same secret, destinations and intake settings (checked by the insert
 * itself), so a rotated token, a deactivation or a new secret takes effect at once, as without it.
 */
const channelHints = new LRUCache<string, MarketingChannelInstanceRow>({ max: 1000, ttl: 60_000 });

export async function channelByToken(db: DbOrTx, pathToken: string): Promise<MarketingChannelInstanceRow> {
  const unknown = () => notFound("Unknown or inactive channel.");
  if (!/^chnl_[A-Za-z0-9_-]{16,100}$/.test(pathToken)) throw unknown();
  const [c] = await db.select().from(marketingChannelInstances).where(eq(marketingChannelInstances.pathToken, pathToken)).limit(1);
  if (!c?.active) throw unknown();
  return c;
}

/** The context of a channel's call: from the hint when there is one (unless `fresh`), else from the database (404 when unknown or inactive). */
export async function channelCaller(db: DbOrTx, pathToken: string, o: { fresh?: boolean } = {}): Promise<ChannelCtx> {
  const hint = o.fresh ? undefined : channelHints.get(pathToken);
  if (o.fresh) channelHints.delete(pathToken);
  const channel = hint ?? (await channelByToken(db, pathToken));
  return {
    db,
    tenantId: channel.tenantId,
    actor: { kind: "integration", integration: "marketing_channel", id: channel.id, tenantId: channel.tenantId, channel, hinted: Boolean(hint) },
  };
}

/** The channel as it was when its call was answered: later calls may use it as their hint. */
export function rememberChannel(ctx: ChannelCtx): void {
  channelHints.set(ctx.actor.channel.pathToken, ctx.actor.channel);
}
