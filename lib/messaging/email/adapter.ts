import { randomUUID } from "node:crypto";
import { and, desc, eq, lte } from "drizzle-orm";
import { getDb, type Tx } from "../../../db/client";
import { messagingEmailMessages, type MessagingChannelRow } from "../../../db/schema";
import { GatewayError } from "../providers/gateway-http";
import type { Credentials, ProviderAdapter, ProviderMessage } from "../providers/types";
import { withoutLabels } from "../providers/without-labels";
import { emailAddressOfChatId, isReplySubject, subjectKey } from "./address";
import { smtpSend, smtpVerify } from "./smtp-send";

type ThreadHead = { messageId: string; subject: string | null; references: string[] };

/** The subject of a message we send in a thread: the thread's subject answered, else the text's first line. */
function subjectFor(last: { subject: string | null } | undefined, text: string): string {
  if (last?.subject) return isReplySubject(last.subject) ? last.subject : `Re: ${last.subject}`;
  const first = text.trim().split("\n")[0].trim();
  return first.length > 78 ? `${first.slice(0, 77)}…` : first;
}

/**
 * An e-mail channel: inbound through the e-mail webhook (lib/messaging/email/receive-email.ts),
 * outbound through the channel's SMTP server with nodemailer. The service keeps the messages
 * (`messaging_email_messages`), so the history is read from there: for e-mail the service is the feed.
 * `apiKey` is the SMTP password, `sessionName` the channel's address.
 */
export function emailAdapter(channel: MessagingChannelRow, creds: Credentials): ProviderAdapter {
  const smtp = creds.smtp;
  const address = creds.sessionName;
  const lastSent = new Map<string, ThreadHead>();
  const latestOf = async (chatId: string): Promise<ThreadHead | undefined> => {
    const [row] = await (await getDb())
      .select({ messageId: messagingEmailMessages.messageId, subject: messagingEmailMessages.subject, references: messagingEmailMessages.references })
      .from(messagingEmailMessages)
      .where(and(eq(messagingEmailMessages.channelId, channel.id), eq(messagingEmailMessages.chatId, chatId)))
      .orderBy(desc(messagingEmailMessages.at))
      .limit(1);
    return row;
  };
  const requireSmtp = () => {
    if (!smtp) throw new GatewayError("unreachable", "the channel has no SMTP settings");
    return smtp;
  };
  return {
    supportsHistory: true,
    supportsTemplates: false,
    async status(signal) {
      try {
        await smtpVerify(requireSmtp(), creds.apiKey, address.split("@")[1] ?? "localhost", signal);
        return "connected";
      } catch (err) {
        if (err instanceof GatewayError && err.kind === "unauthorized") return "expired";
        throw err;
      }
    },
    async history(chatId, { limit, lteSeconds }) {
      const db = await getDb();
      const rows = await db
        .select()
        .from(messagingEmailMessages)
        .where(
          and(
            eq(messagingEmailMessages.channelId, channel.id),
            eq(messagingEmailMessages.chatId, chatId),
            lteSeconds === undefined ? undefined : lte(messagingEmailMessages.at, new Date((lteSeconds + 1) * 1000 - 1)),
          ),
        )
        .orderBy(desc(messagingEmailMessages.at))
        .limit(limit);
      return rows.map(
        (r): ProviderMessage => ({
          id: r.messageId,
          timestamp: Math.floor(r.at.getTime() / 1000),
          fromMe: r.fromMe,
          text: r.text,
          pushName: r.senderName,
          type: r.type,
          media: r.media[0] ?? null,
        }),
      );
    },
    async sendText(chatId, text, signal) {
      const to = emailAddressOfChatId(chatId);
      if (!to) throw new GatewayError("http", "the chat id is not an e-mail address");
      // The thread's latest message: the reply answers it and carries its references (RFC 5322 §3.6.4).
      // A part sent earlier in this same send is not stored yet (its row is written with the send's
      // record, after delivery), so it is remembered here: the next part answers it.
      const last = lastSent.get(chatId) ?? (await latestOf(chatId));
      const references = last ? [...last.references.filter((r) => r !== last.messageId), last.messageId] : [];
      // Long threads keep the root and the latest ids (as clients do), so the header stays short.
      const kept = references.length > 20 ? [references[0], ...references.slice(-19)] : references;
      const subject = subjectFor(last, text);
      const messageId = `${randomUUID()}@${address.split("@")[1] ?? "localhost"}`;
      await smtpSend(
        requireSmtp(),
        creds.apiKey,
        { from: { address, name: channel.name }, to, subject, text, messageId, inReplyTo: last?.messageId ?? null, references: kept },
        signal,
      );
      const at = new Date();
      lastSent.set(chatId, { messageId, subject, references: kept });
      // Written by the send verb in the transaction that records the message and its event.
      const keep = async (tx: Tx) => {
        await tx
          .insert(messagingEmailMessages)
          .values({
            tenantId: channel.tenantId,
            channelId: channel.id,
            chatId,
            messageId,
            correspondent: to,
            fromMe: true,
            at,
            type: "text",
            text,
            senderName: null,
            subject,
            subjectKey: subjectKey(subject),
            references: kept,
          })
          .onConflictDoNothing();
      };
      return { messageId, keep };
    },
    async sendTemplate() {
      throw new Error("e-mail channels cannot send templates");
    },
    ...withoutLabels("e-mail"),
  };
}
