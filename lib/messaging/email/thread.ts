import { and, desc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { messagingEmailMessages } from "../../../db/schema";
import { isReplySubject, subjectKey, threadChatId } from "./address";
import type { InboundEmail } from "./parse-inbound";

/**
 * The conversation (chat id) an inbound e-mail belongs to: one per correspondent and thread.
 * 1. A message it answers (`In-Reply-To`, `References`) that we keep from the same correspondent:
 *    that message's conversation (also a thread we opened with a proactive send).
 * 2. A `Re:`/`Fwd:` subject without usable headers (some clients drop them): the latest thread of
 *    this correspondent with the same subject.
 * 3. Else a new thread keyed by its root: the first `References` id (RFC 5322 keeps the root
 *    first), else `In-Reply-To`, else its own `Message-ID`. Messages of one thread that arrive
 *    out of order still meet there.
 */
export async function chatIdForInbound(db: DbOrTx, channelId: string, mail: InboundEmail): Promise<string> {
  const from = mail.from.address;
  const refs = [...mail.references, ...mail.inReplyTo.filter((id) => !mail.references.includes(id))];
  const pick = (where: ReturnType<typeof and>) =>
    db.select({ chatId: messagingEmailMessages.chatId }).from(messagingEmailMessages).where(where).orderBy(desc(messagingEmailMessages.at)).limit(1);
  if (refs.length) {
    const [hit] = await pick(
      and(eq(messagingEmailMessages.channelId, channelId), eq(messagingEmailMessages.correspondent, from), inArray(messagingEmailMessages.messageId, refs)),
    );
    if (hit) return hit.chatId;
  } else if (isReplySubject(mail.subject)) {
    const key = subjectKey(mail.subject);
    if (key) {
      const [hit] = await pick(
        and(eq(messagingEmailMessages.channelId, channelId), eq(messagingEmailMessages.correspondent, from), eq(messagingEmailMessages.subjectKey, key)),
      );
      if (hit) return hit.chatId;
    }
  }
  return threadChatId(from, refs[0] ?? mail.messageId);
}
