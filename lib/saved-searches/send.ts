import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { members, messagingChannels, type SavedSearchRow } from "../../db/schema";
import { accessOf, type MemberActor } from "../context/actor";
import { tenantMailer, type TenantMailer } from "../mail/send-tenant-mail";
import { sendMessage } from "../messaging/send/send-message";

export type VisitorMessage = { subject: string; text: string; html: string };

/**
 * Sends one message to a saved search's visitor by its channel. E-mail through the tenant's mail
 * (lib/mail), with the RFC 8058 one-click unsubscribe headers on alerts. WhatsApp through the
 * tenant's oldest WhatsApp channel as its owner, with `sendMessage`: the same gates as a
 * member's send (opt-outs, chat privacy, connection), so an opted-out number gets nothing.
 * Throws with the reason when nothing was sent. A batch passes the tenant's `mailer`, resolved once.
 */
export async function sendToVisitor(
  db: Db,
  row: SavedSearchRow,
  msg: VisitorMessage,
  opts: { unsubscribeUrl?: string; key: string; mailer?: TenantMailer },
): Promise<void> {
  if (row.channel === "email") {
    if (!row.email) throw new Error("the saved search has no e-mail address");
    const headers = opts.unsubscribeUrl ? { "List-Unsubscribe": `<${opts.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined;
    const mailer = opts.mailer ?? (await tenantMailer(db, row.tenantId));
    await mailer({ to: row.email, subject: msg.subject, text: msg.text, html: msg.html, headers });
    return;
  }
  if (!row.phone) throw new Error("the saved search has no phone");
  const [channel] = await db
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.tenantId, row.tenantId), inArray(messagingChannels.transport, ["whatsapp", "whatsapp_cloud"])))
    .orderBy(asc(messagingChannels.createdAt))
    .limit(1);
  if (!channel?.ownerId) throw new Error("the agency has no WhatsApp channel with an owner to send from");
  const [owner] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, channel.ownerId), eq(members.tenantId, row.tenantId), eq(members.active, true)));
  if (!owner) throw new Error("the WhatsApp channel's owner is not active");
  const actor: MemberActor = {
    kind: "member",
    tenantId: row.tenantId,
    userId: owner.id,
    role: owner.role,
    scope: "broad",
    keyId: owner.id,
    access: accessOf(owner.role, "broad"),
  };
  const ack = await sendMessage(
    { db, tenantId: row.tenantId, actor },
    {
      mode: "send",
      channelId: channel.id,
      chatId: `${row.phone.replace(/\D/g, "")}@c.us`,
      content: { kind: "text", text: `${msg.subject}\n\n${msg.text}`.slice(0, 4096) },
      idempotencyKey: opts.key,
    },
  );
  if (ack.status !== "sent") throw new Error(`WhatsApp send ${ack.status}: ${ack.reason ?? "unknown"}`);
}
