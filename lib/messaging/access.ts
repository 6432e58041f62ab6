import { type Placeholder, and, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { messagingChannelGrants, messagingChannels, type MessagingChannelRow } from "../../db/schema";
import type { MemberActor } from "../context/actor";

/**
 * The `channel_access_grant` and `mock_channel_exclusion` gates as one predicate: a channel of the
 * actor's tenant, not a mock, that the actor owns or holds a grant for. Tenant role does not widen
 * it: an owner of the tenant without a grant sees none of a broker's chats.
 */
export function accessibleChannel(actor: Pick<MemberActor, "tenantId" | "userId"> | { tenantId: Placeholder; userId: Placeholder }) {
  return and(
    eq(messagingChannels.tenantId, actor.tenantId),
    eq(messagingChannels.mock, false),
    or(
      eq(messagingChannels.ownerId, actor.userId),
      sql`exists (select 1 from ${messagingChannelGrants} g where g.channel_id = ${messagingChannels.id} and g.member_id = ${actor.userId} and g.tenant_id = ${actor.tenantId})`,
    ),
  );
}

export async function accessibleChannels(db: DbOrTx, actor: MemberActor): Promise<MessagingChannelRow[]> {
  return db.select().from(messagingChannels).where(accessibleChannel(actor));
}

/** The channel when the actor may use it, else null (unknown, other tenant, mock, or no grant: one answer). */
export async function accessibleChannelById(db: DbOrTx, actor: MemberActor, channelId: string): Promise<MessagingChannelRow | null> {
  const [c] = await db
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, channelId), accessibleChannel(actor)))
    .limit(1);
  return c ?? null;
}

/**
 * Why a channel is not accessible, without saying more: `channel_forbidden` for a (non-mock)
 * channel of the actor's tenant, `not_found_or_inaccessible` for anything else.
 */
export async function channelRefusal(db: DbOrTx, actor: MemberActor, channelId: string): Promise<"channel_forbidden" | "not_found_or_inaccessible"> {
  const [c] = await db
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, channelId), eq(messagingChannels.tenantId, actor.tenantId), eq(messagingChannels.mock, false)))
    .limit(1);
  return c ? "channel_forbidden" : "not_found_or_inaccessible";
}
