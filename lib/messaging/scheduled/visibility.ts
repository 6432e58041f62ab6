import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { messagingChannels as C, messagingChatPrivacy as P, messagingScheduledMessages as S } from "../../../db/schema";
import type { MemberActor } from "../../context/actor";
import { accessibleChannel } from "../access";

/** Join of a schedule to its channel, restricted to channels the actor may use (grant, tenant, no mock). */
export const channelJoin = (actor: MemberActor): SQL => and(eq(C.id, S.channelId), accessibleChannel(actor))!;
export const privacyJoin: SQL = and(eq(P.channelId, S.channelId), eq(P.chatId, S.chatId))!;

/** Schedules of hidden chats are not shown (as their conversations are not): blacklisted, or not listed on a whitelist channel. */
export const chatNotHidden: SQL = and(
  sql`coalesce(${P.state}, '') <> 'hidden'`,
  or(sql`${C.privacyMode} <> 'whitelist'`, sql`${P.state} in ('whitelisted', 'pending')`),
)!;

/** A broker (restricted access) acts on its own schedules; broad members on every schedule of their channels. */
export function mayChange(actor: MemberActor, createdById: string | null): boolean {
  return actor.access === "broad" || createdById === actor.userId;
}
