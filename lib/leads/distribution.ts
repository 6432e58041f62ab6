import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { distributionQueueMembers, marketingChannelInstances, members } from "../../db/schema";

/**
 * Round robin over the channel's queue, skipping inactive members. The channel row is locked
 * while the cursor moves, so concurrent leads of one channel never land on the same turn.
 * Returns null when the queue has no active member (the deal stays unassigned).
 */
export async function nextInQueue(tx: DbOrTx, tenantId: string, channelId: string): Promise<string | null> {
  const [channel] = await tx
    .select({ cursor: marketingChannelInstances.distributionCursor })
    .from(marketingChannelInstances)
    .where(and(eq(marketingChannelInstances.id, channelId), eq(marketingChannelInstances.tenantId, tenantId)))
    .for("update");
  if (!channel) return null;
  const queue = await tx
    .select({ memberId: distributionQueueMembers.memberId })
    .from(distributionQueueMembers)
    .innerJoin(members, and(eq(members.id, distributionQueueMembers.memberId), eq(members.tenantId, tenantId)))
    .where(and(eq(distributionQueueMembers.channelInstanceId, channelId), eq(distributionQueueMembers.tenantId, tenantId), eq(members.active, true)))
    .orderBy(asc(distributionQueueMembers.position));
  if (!queue.length) return null;
  const pick = queue[channel.cursor % queue.length].memberId;
  await tx
    .update(marketingChannelInstances)
    .set({ distributionCursor: sql`${marketingChannelInstances.distributionCursor} + 1` })
    .where(eq(marketingChannelInstances.id, channelId));
  return pick;
}
