import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { webChatSessions } from "../../../db/schema";

/** The E.164 phone a web-chat visitor left, if any (the outreach gate checks it against the opt-outs). */
export async function webChatVisitorPhone(db: DbOrTx, channelId: string, chatId: string): Promise<string | null> {
  const [s] = await db
    .select({ phone: webChatSessions.phone })
    .from(webChatSessions)
    .where(and(eq(webChatSessions.channelId, channelId), eq(webChatSessions.chatId, chatId)))
    .limit(1);
  return s?.phone ?? null;
}
