import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels as C, messagingChatPrivacy as P, messagingScheduledMessages as S } from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { ChatIdSchema } from "../chat-id";
import { effectivePrivacy } from "../chat-privacy";
import { decodeCursor, encodeCursor, scopeHash } from "../conversations/cursor";
import { readPolicy, ReadPolicySchema } from "../conversations/policy";
import { enumArray, LimitParam } from "../conversations/query-params";
import { presentScheduled, SCHEDULE_STATUSES, ScheduledMessageSchema } from "./present";
import { channelJoin, chatNotHidden, privacyJoin } from "./visibility";

export const ListScheduledQuery = z
  .strictObject({
    status: enumArray(SCHEDULE_STATUSES).optional(),
    channelId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional(),
    chatId: ChatIdSchema.optional(),
    limit: LimitParam.default(50),
    cursor: z.string().max(500).optional().meta({ description: "Opaque echo of `page.nextCursor`." }),
  })
  .meta({ id: "ListScheduledMessagesQuery" });

/**
 * `GET /api/v1/messaging/scheduled` and the `list_scheduled_messages` tool: schedules on the
 * channels the member may use (the read gates of conversations: grant, tenant, no mock, chats
 * hidden by privacy left out, a pending chat's text withheld), earliest `sendAt` first.
 */
/** The answer of `listScheduled`. */
export const ScheduledMessageListSchema = z
  .object({
    policy: ReadPolicySchema,
    scheduled: z.array(ScheduledMessageSchema),
    page: z.object({ returned: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
  })
  .meta({ id: "ScheduledMessageList" });

export async function listScheduled(ctx: MemberCtx, q: z.output<typeof ListScheduledQuery>): Promise<z.infer<typeof ScheduledMessageListSchema>> {
  const { limit, cursor, ...filters } = q;
  const scope = scopeHash(ctx.tenantId, ctx.actor.userId, { scheduled: filters });
  const after = cursor ? decodeCursor(cursor, scope) : null;
  const conds = [eq(S.tenantId, ctx.tenantId), chatNotHidden];
  if (q.status) conds.push(inArray(S.status, q.status));
  if (q.channelId) conds.push(eq(S.channelId, q.channelId));
  if (q.chatId) conds.push(eq(S.chatId, q.chatId));
  if (after) conds.push(sql`(${S.sendAt}, ${S.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  const rows = await ctx.db
    .select({ s: S, state: P.state, privacyMode: C.privacyMode })
    .from(S)
    .innerJoin(C, channelJoin(ctx.actor))
    .leftJoin(P, privacyJoin)
    .where(and(...conds))
    .orderBy(asc(S.sendAt), asc(S.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page.at(-1);
  return {
    policy: readPolicy([]),
    scheduled: page.map((r) => presentScheduled(r.s, { redactText: effectivePrivacy(r.privacyMode, r.state) === "pending" })),
    page: {
      returned: page.length,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(scope, { at: last.s.sendAt.toISOString(), id: last.s.id }) : null,
    },
  };
}
