import { and, count, eq, ilike, inArray, isNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { messagingConversations as C } from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { accessibleChannels } from "../access";
import { decodeCursor, encodeCursor, scopeHash } from "./cursor";
import { readPolicy, ReadPolicySchema } from "./policy";
import { ConversationSchema, presentConversation, type ConversationItem } from "./present";
import { boolParam, ConnectionStatesParam, LimitParam, TransportsParam } from "./query-params";

export const ListConversationsQuery = z
  .strictObject({
    transports: TransportsParam.optional(),
    channelId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional(),
    search: z.string().trim().min(1).max(200).optional().meta({ description: "Matches the name, the masked handle or the preview (case-insensitive)." }),
    unreadOnly: boolParam.optional(),
    awaitingReplyOnly: boolParam.optional().meta({ description: "Last message inbound and unanswered." }),
    assignedToId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional(),
    connectionStates: ConnectionStatesParam.optional(),
    sort: z.enum(["last_activity_desc", "unread_first"]).default("last_activity_desc"),
    limit: LimitParam.default(50),
    cursor: z.string().max(500).optional().meta({ description: "Opaque echo of `page.nextCursor`." }),
  })
  .meta({ id: "ListConversationsQuery" });

export type ListConversationsInput = z.output<typeof ListConversationsQuery>;

/**
 * Visible: not blacklisted, and on a whitelist channel whitelisted or pending (spec 1 §5.6-5.7).
 * Reads the conversation's copy of its privacy entry, so the list is one indexed table.
 */
function visible(whitelistIds: string[]): SQL {
  const state = sql`coalesce(${C.privacyState}, '')`;
  return and(
    sql`${state} <> 'hidden'`,
    whitelistIds.length ? or(notInArray(C.channelId, whitelistIds), sql`${state} in ('whitelisted', 'pending')`) : undefined,
  )!;
}

/** The complement of `visible` in a form the `(channel_id, privacy_state)` index answers (states are whitelisted, pending, hidden or null). */
function hiddenChats(whitelistIds: string[]): SQL {
  return or(eq(C.privacyState, "hidden"), whitelistIds.length ? and(inArray(C.channelId, whitelistIds), isNull(C.privacyState)) : undefined)!;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `GET /api/v1/messaging/conversations`: conversations of the channels the actor may use, newest
 * activity first (or unread first), keyset paged with an opaque cursor tied to the tenant, the
 * member and the filters. Hidden chats are only counted; a key without channels gets an empty 200.
 */
/** The answer of `listConversations`. */
export const ConversationListSchema = z
  .object({
    policy: ReadPolicySchema,
    conversations: z.array(ConversationSchema),
    redaction: z.object({
      privacyFilteredCount: z
        .number()
        .int()
        .meta({ description: "Hidden chats (blacklisted, or unknown on a privacy channel) of the selected channels: absent, only counted." }),
      redactedCount: z.number().int().meta({ description: "Items of this page shown without preview (pending approval)." }),
    }),
    page: z.object({ returned: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
    scope: z.object({ accessibleChannelCount: z.number().int(), privacyEnabledChannelCount: z.number().int() }),
  })
  .meta({ id: "ConversationList" });

export async function listConversations(ctx: MemberCtx, q: ListConversationsInput): Promise<z.infer<typeof ConversationListSchema>> {
  const channels = await accessibleChannels(ctx.db, ctx.actor);
  const scope = { accessibleChannelCount: channels.length, privacyEnabledChannelCount: channels.filter((c) => c.privacyMode === "whitelist").length };
  const { limit, cursor, ...filters } = q;
  const scopeKey = scopeHash(ctx.tenantId, ctx.actor.userId, filters);
  const after = cursor ? decodeCursor(cursor, scopeKey) : null;
  const empty = (disabledReasons: string[]) => ({
    policy: readPolicy(disabledReasons),
    conversations: [] as ConversationItem[],
    redaction: { privacyFilteredCount: 0, redactedCount: 0 },
    page: { returned: 0, hasMore: false, nextCursor: null },
    scope,
  });
  if (!channels.length) return empty(["no_accessible_channels"]);

  const selected = channels.filter(
    (c) =>
      (!q.transports || q.transports.includes(c.transport as never)) &&
      (!q.connectionStates || q.connectionStates.includes(c.connectionState as never)) &&
      (!q.channelId || c.id === q.channelId),
  );
  if (!selected.length) return empty([]);
  const byId = new Map(selected.map((c) => [c.id, c]));
  const ids = selected.map((c) => c.id);
  const whitelistIds = selected.filter((c) => c.privacyMode === "whitelist").map((c) => c.id);

  const unread = sql<boolean>`(${C.unreadCount} > 0)`;
  const conds: (SQL | undefined)[] = [eq(C.tenantId, ctx.tenantId), inArray(C.channelId, ids), visible(whitelistIds)];
  if (q.unreadOnly) conds.push(sql`${C.unreadCount} > 0`);
  if (q.awaitingReplyOnly) conds.push(eq(C.awaitingReply, true));
  if (q.assignedToId) conds.push(eq(C.assignedToId, q.assignedToId));
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    // A pending chat's preview is not shown, so it must not be findable by it either.
    conds.push(or(ilike(C.displayName, like), ilike(C.handleMasked, like), and(sql`coalesce(${C.privacyState}, '') <> 'pending'`, ilike(C.lastPreview, like))));
  }
  if (after) {
    const older = sql`(${C.lastActivityAt}, ${C.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`;
    if (q.sort === "unread_first") conds.push(after.u ? or(and(unread, older), sql`${C.unreadCount} = 0`) : and(sql`${C.unreadCount} = 0`, older));
    else conds.push(older);
  }
  // NULLS LAST as the indexes are declared (the columns are never null): the page is read in index order and stops at the limit.
  const byActivity = [sql`${C.lastActivityAt} desc nulls last`, sql`${C.id} desc nulls last`];
  const order = q.sort === "unread_first" ? [sql`(${C.unreadCount} > 0) desc nulls last`, ...byActivity] : byActivity;

  const [rows, [hidden]] = await Promise.all([
    ctx.db
      .select({ c: C })
      .from(C)
      .where(and(...conds))
      .orderBy(...order)
      .limit(limit + 1),
    ctx.db
      .select({ n: count() })
      .from(C)
      .where(and(eq(C.tenantId, ctx.tenantId), inArray(C.channelId, ids), hiddenChats(whitelistIds))),
  ]);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  const conversations = page.map((r) => presentConversation(r.c, byId.get(r.c.channelId)!, r.c.privacyState));
  return {
    policy: readPolicy([]),
    conversations,
    redaction: {
      privacyFilteredCount: Number(hidden?.n ?? 0),
      redactedCount: conversations.filter((c) => c.privacy.reason === "privacy_pending_approval").length,
    },
    page: {
      returned: conversations.length,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor(scopeKey, {
              u: q.sort === "unread_first" ? last.c.unreadCount > 0 : undefined,
              at: last.c.lastActivityAt.toISOString(),
              id: last.c.id,
            })
          : null,
    },
    scope,
  };
}
