import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingInboundEvents, messagingEmailMessages } from "../../../db/schema";
import { inTransaction } from "../../../db/transaction";
import { withLogContext } from "../../log/log-context";
import { DomainError } from "../../errors/domain-errors";
import { readCappedBody } from "../../http/read-json";
import { sendJobEvent } from "../../jobs/dispatch";
import type { GatewayCtx } from "../inbound/gateway-caller";
import { messagingEventsReceived } from "../inbound/job";
import type { ProviderMessage } from "../providers/types";
import { subjectKey } from "./address";
import { parseInboundEmail } from "./parse-inbound";
import { chatIdForInbound } from "./thread";
import { trimReply } from "./trim-reply";

/** Inbound e-mail bodies up to 10 MB (attachments are read for their type only, then dropped). */
export const EMAIL_MAX_BYTES = 10_000_000;

/** What the e-mail webhook answers: the stored message's id; `duplicate` when that `Message-ID` was stored before. */
export const EmailStoredSchema = z.object({ ok: z.literal(true), id: z.uuid(), duplicate: z.boolean() });

/** The webhook's 200 for every channel: e-mail channels add `duplicate`. */
export const WebhookStoredSchema = z
  .object({
    ok: z.literal(true),
    id: z.uuid().meta({ description: "The stored event's id (for e-mail, the stored message's)." }),
    duplicate: z.boolean().optional().meta({ description: "E-mail only: true when this `Message-ID` was stored before (nothing changed)." }),
  })
  .meta({ id: "WebhookStored" });

/** The event the e-mail webhook queues for the shared processing (conversation record, events). */
export type EmailInboundEvent = { type: "email.message"; chatId: string; message: ProviderMessage };

const digest = (v: string) => createHash("sha256").update(v).digest();

/**
 * The channel's webhook secret, sent as `X-Webhook-Secret: <secret>`, `Authorization: Bearer
 * <secret>` or as the password of HTTP Basic auth (`https://any:<secret>@host/...`, what
 * SendGrid, Mailgun and Postmark can be configured with). Compared in constant time (over
 * SHA-256 digests, so lengths do not leak either).
 */
export function verifyEmailSecret(secret: string, headers: Headers): boolean {
  const candidates: string[] = [];
  const h = headers.get("x-webhook-secret");
  if (h) candidates.push(h.trim());
  const auth = headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(.+)$/i.exec(auth);
  if (bearer) candidates.push(bearer[1].trim());
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth);
  if (basic) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    candidates.push(decoded.slice(decoded.indexOf(":") + 1));
  }
  const expected = digest(secret);
  let ok = false;
  for (const c of candidates) ok = timingSafeEqual(digest(c), expected) || ok;
  return ok;
}

/**
 * An inbound e-mail (already authenticated) parsed, threaded and stored in one transaction before
 * the 200: the message itself (history, threading, dedupe on `Message-ID`) and the event the
 * shared processing turns into the conversation record and `channel.message.received`. A message
 * stored before answers its first id with `duplicate: true` and changes nothing.
 */
export async function receiveEmail(ctx: GatewayCtx, req: Request): Promise<z.infer<typeof EmailStoredSchema>> {
  const { channel } = ctx.actor;
  const raw = await readCappedBody(
    req,
    EMAIL_MAX_BYTES,
    () => new DomainError("too_large", "payload_too_large", `The e-mail is larger than ${EMAIL_MAX_BYTES} bytes.`),
  );
  const mail = await parseInboundEmail(req.headers.get("content-type"), raw);
  const text = trimReply(mail.text);
  const type = text || !mail.media.length ? "text" : mail.media[0].kind;
  const message: ProviderMessage = {
    id: mail.messageId,
    timestamp: Math.floor(mail.date.getTime() / 1000),
    fromMe: false,
    text: text || null,
    pushName: mail.from.name,
    type,
    media: mail.media[0] ?? null,
  };
  // Not under the tenant's row lock: nothing here is numbered in the tenant's outbox (the event
  // is processed later, claimed by status), and the lock made a channel take one message at a
  // time. Threading only reads the same correspondent's messages, so those are what must not
  // interleave: a lock on the channel and sender address.
  const result = await withLogContext({ tenantId: ctx.tenantId }, () =>
    inTransaction(ctx.db, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`email-thread:${channel.id}:${mail.from.address}`}, 0))`);
      const chatId = await chatIdForInbound(tx, channel.id, mail);
      const [stored] = await tx
        .insert(messagingEmailMessages)
        .values({
          tenantId: ctx.tenantId,
          channelId: channel.id,
          chatId,
          messageId: mail.messageId,
          correspondent: mail.from.address,
          fromMe: false,
          at: mail.date,
          type,
          text: message.text,
          senderName: mail.from.name,
          subject: mail.subject,
          subjectKey: subjectKey(mail.subject),
          media: mail.media,
          references: [...mail.references, ...mail.inReplyTo.filter((id) => !mail.references.includes(id))],
        })
        .onConflictDoNothing()
        .returning({ id: messagingEmailMessages.id });
      if (!stored) {
        const [first] = await tx
          .select({ id: messagingEmailMessages.id })
          .from(messagingEmailMessages)
          .where(and(eq(messagingEmailMessages.channelId, channel.id), eq(messagingEmailMessages.messageId, mail.messageId)))
          .limit(1);
        return { ok: true as const, id: first.id, duplicate: true };
      }
      const event: EmailInboundEvent = { type: "email.message", chatId, message };
      await tx.insert(messagingInboundEvents).values({ tenantId: ctx.tenantId, channelId: channel.id, event: "email.message", body: JSON.stringify(event) });
      return { ok: true as const, id: stored.id, duplicate: false };
    }),
  );
  if (!result.duplicate) sendJobEvent(messagingEventsReceived, {});
  return result;
}

/** The shared processing's view of a stored e-mail event. */
export function parseEmailEvent(body: Record<string, unknown>) {
  const e = body as Partial<EmailInboundEvent>;
  if (e.type !== "email.message" || typeof e.chatId !== "string" || !e.message || typeof e.message.id !== "string") return [];
  return [{ type: "message" as const, chatId: e.chatId, fromMe: false, message: e.message }];
}
