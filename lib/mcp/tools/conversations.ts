import { z } from "zod";
import { conversationDetail, DetailQuery } from "../../messaging/conversations/detail";
import { listConversations, ListConversationsQuery } from "../../messaging/conversations/list";
import { CONNECTION_STATES, TRANSPORTS } from "../../messaging/providers/types";
import { defineTool, READ_ONLY } from "../define-tool";
import { done } from "../result";

/** Tool arguments are typed JSON; the REST query schema (the one validation) takes strings. */
export function asQuery(args: Record<string, unknown>): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    q[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return q;
}

const chatIdArg = z.string().min(1).max(200).describe("Chat id exactly as `conversations[].key.chatId` gives it, e.g. `5511987654321@c.us`.");

export const listConversationsTool = defineTool({
  name: "list_conversations",
  title: "List conversations",
  description:
    "Lists the conversations of the messaging channels this API key's member may use, newest activity first " +
    "(same envelope as GET /api/v1/messaging/conversations: `policy`, `conversations[]`, `redaction`, `page`, `scope`). " +
    "Use `key.channelId` and `key.chatId` of an item with the other tools. Chats hidden by privacy are only counted in " +
    "`redaction.privacyFilteredCount`; a chat pending privacy approval has no preview. No accessible channel gives an " +
    "empty list with `policy.disabledReasons: ['no_accessible_channels']`. Page with `cursor` = `page.nextCursor` and the same filters.",
  input: z.strictObject({
    transports: z.array(z.enum(TRANSPORTS)).min(1).optional().describe("Only these transports."),
    channelId: z.uuid().optional().describe("Only this channel."),
    search: z.string().min(1).max(200).optional().describe("Matches the name, the masked handle or the preview."),
    unreadOnly: z.boolean().optional(),
    awaitingReplyOnly: z.boolean().optional().describe("Last message inbound and unanswered."),
    assignedToId: z.uuid().optional(),
    connectionStates: z.array(z.enum(CONNECTION_STATES)).min(1).optional(),
    sort: z.enum(["last_activity_desc", "unread_first"]).optional(),
    limit: z.number().int().min(1).max(100).optional().describe("1 to 100 (default 50)."),
    cursor: z.string().max(500).optional().describe("`page.nextCursor` of the previous call."),
  }),
  annotations: READ_ONLY,
  async run({ ctx }, args) {
    const out = await listConversations(ctx, ListConversationsQuery.parse(asQuery(args)));
    const more = out.page.hasMore ? "; more with cursor=page.nextCursor" : "";
    const why = out.policy.disabledReasons.length ? ` (${out.policy.disabledReasons.join(", ")})` : "";
    return done(out, `${out.page.returned} conversation(s) on ${out.scope.accessibleChannelCount} accessible channel(s)${why}${more}.`);
  },
});

export const getConversationTool = defineTool({
  name: "get_conversation",
  title: "Read a conversation",
  description:
    "One conversation's state and a page of its live history from the channel (same answer as GET " +
    "/api/v1/messaging/conversations/detail). `conversation` is null with `rejection` (`not_found_or_inaccessible`, " +
    "`channel_forbidden`, `privacy_restricted`) when this member may not read it. When `history.unavailableReason` is " +
    "set the page is empty because the channel did not give it, not because the chat is empty; retry after " +
    "`history.retryAfterSeconds` when `history.retryable`. Older pages: `before` = `history.nextBefore`.",
  input: z.strictObject({
    channelId: z.uuid(),
    chatId: chatIdArg,
    limit: z.number().int().min(1).max(100).optional().describe("History page size, 1 to 100 (default 30)."),
    before: z.string().max(40).optional().describe("ISO 8601: only messages strictly older (echo `history.nextBefore`)."),
    includeHistory: z.boolean().optional().describe("false: only the conversation state."),
  }),
  annotations: { ...READ_ONLY, openWorldHint: true },
  async run({ ctx }, args) {
    const out = await conversationDetail(ctx, DetailQuery.parse(asQuery(args)));
    if (!out.conversation) return done(out, `No readable conversation: ${out.rejection}.`);
    const h = out.history;
    const hist = h
      ? h.unavailableReason
        ? `history unavailable (${h.unavailableReason})`
        : `${h.messages.length} message(s)${h.hasMore ? ", more with before=history.nextBefore" : ""}`
      : "no history asked";
    return done(out, `Conversation with ${out.conversation.participant.displayName ?? out.conversation.participant.handleMasked}: ${hist}.`);
  },
});

export { chatIdArg };
