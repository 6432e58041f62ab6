import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import { webChatSessions } from "../../../db/schema";
import { authorsOf } from "../conversations/authors";
import type { HistoryMessageSchema, HistorySchema } from "../conversations/detail";
import type { WebChatOriginSchema } from "./origin";
import { VISITOR_NAME } from "./sessions";
import { messagesBefore } from "./store";

export async function webChatOrigin(db: DbOrTx, channelId: string, chatId: string): Promise<z.infer<typeof WebChatOriginSchema> | null> {
  const [s] = await db
    .select({
      pageUrl: webChatSessions.pageUrl,
      listingId: webChatSessions.listingId,
      siteId: webChatSessions.siteId,
      shareLinkId: webChatSessions.shareLinkId,
    })
    .from(webChatSessions)
    .where(and(eq(webChatSessions.channelId, channelId), eq(webChatSessions.chatId, chatId)))
    .limit(1);
  return s ?? null;
}

/**
 * A web chat's history for the member's detail: one page of the service's own store, newest first,
 * strictly older than `before` (millisecond keys: `nextBefore` is the oldest message's instant).
 * Authors come from the send records, as for WhatsApp; the visitor's messages carry their name.
 */
export async function storedHistory(
  db: DbOrTx,
  channelId: string,
  chatId: string,
  opts: { limit: number; before: Date | undefined; redacted: boolean },
): Promise<z.infer<typeof HistorySchema>> {
  const rows = await messagesBefore(db, channelId, chatId, opts.before, opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const hasMore = rows.length > opts.limit;
  const [s] = await db
    .select({ name: webChatSessions.name })
    .from(webChatSessions)
    .where(and(eq(webChatSessions.channelId, channelId), eq(webChatSessions.chatId, chatId)))
    .limit(1);
  const authors = await authorsOf(
    db,
    channelId,
    page.filter((m) => m.direction === "outbound").map((m) => m.id),
  );
  const messages = page.map((m): z.infer<typeof HistoryMessageSchema> => {
    const authorId = m.direction === "outbound" ? (authors.get(m.id)?.authorId ?? null) : null;
    const authorName = authorId ? (authors.get(m.id)?.name ?? null) : m.direction === "inbound" ? (s?.name ?? VISITOR_NAME) : null;
    return {
      id: m.id,
      direction: m.direction,
      at: m.createdAt.toISOString(),
      messageType: m.messageType,
      text: opts.redacted ? null : m.text,
      authorId: opts.redacted ? null : authorId,
      authorName: opts.redacted ? null : authorName,
      media: null,
    };
  });
  return {
    source: "service",
    checkedAt: new Date().toISOString(),
    unavailableReason: null,
    retryable: false,
    retryAfterSeconds: null,
    messages,
    hasMore,
    nextBefore: hasMore && page.length ? page[page.length - 1].createdAt.toISOString() : null,
  };
}
