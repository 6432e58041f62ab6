import { and, asc, eq, exists, inArray, ne, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { members, messagingChannelGrants, messagingChannels } from "../../db/schema";
import { accessOf, type MemberActor } from "../context/actor";
import { logger } from "../log/logger";
import { sendMessage } from "../messaging/send/send-message";
import type { Booking } from "./book-visit";

const TEXT = {
  "pt-BR": (b: Vars) => `Olá, ${b.name}! Sua visita ao imóvel ${b.listing} (${b.code}) está marcada para ${b.when}${b.broker ? ` com ${b.broker}` : ""}.`,
  en: (b: Vars) => `Hi ${b.name}! Your visit to ${b.listing} (${b.code}) is booked for ${b.when}${b.broker ? ` with ${b.broker}` : ""}.`,
  es: (b: Vars) => `¡Hola, ${b.name}! Tu visita al inmueble ${b.listing} (${b.code}) está agendada para ${b.when}${b.broker ? ` con ${b.broker}` : ""}.`,
} as const;
type Vars = { name: string; listing: string; code: string; when: string; broker: string };

/** The confirmation text in the visitor's language, the time in the broker's zone. */
export function confirmationText(b: Booking, timeZone: string): string {
  const when = new Intl.DateTimeFormat(b.data.locale, { timeZone, dateStyle: "full", timeStyle: "short" }).format(b.task.dueAt!);
  return TEXT[b.data.locale]({ name: b.data.contact.name.split(/\s+/)[0], listing: b.listingTitle, code: b.listingCode, when, broker: b.brokerName });
}

/**
 * Sends the visitor's confirmation after the booking committed, by WhatsApp through a channel the
 * broker may use (owned or granted), acting as the broker: the same send verb and gates as any
 * member's send (access, chat privacy, opt-outs), keyed by the visit so a retry cannot send twice.
 * A refusal or an unreachable gateway leaves the booking as it is; the answer says `none`.
 */
export async function sendVisitConfirmation(db: DbOrTx, b: Booking): Promise<"whatsapp" | "none"> {
  const memberId = b.task.assigneeId;
  if (!memberId) return "none";
  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, b.task.tenantId), eq(members.active, true)));
  if (!member) return "none";
  const [channel] = await db
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(
      and(
        eq(messagingChannels.tenantId, b.task.tenantId),
        inArray(messagingChannels.transport, ["whatsapp", "whatsapp_cloud"]),
        ne(messagingChannels.connectionState, "disabled"),
        or(
          eq(messagingChannels.ownerId, memberId),
          exists(
            db
              .select({ one: messagingChannelGrants.memberId })
              .from(messagingChannelGrants)
              .where(and(eq(messagingChannelGrants.channelId, messagingChannels.id), eq(messagingChannelGrants.memberId, memberId))),
          ),
        ),
      ),
    )
    .orderBy(asc(messagingChannels.createdAt))
    .limit(1);
  if (!channel) return "none";
  const actor: MemberActor = {
    kind: "member",
    tenantId: b.task.tenantId,
    userId: member.id,
    role: member.role,
    scope: "broad",
    keyId: member.id,
    access: accessOf(member.role, "broad"),
  };
  try {
    const ack = await sendMessage(
      { db, tenantId: b.task.tenantId, actor },
      {
        mode: "send",
        channelId: channel.id,
        chatId: `${b.data.contact.phone.replace(/\D/g, "")}@c.us`,
        content: { kind: "text", text: confirmationText(b, b.timeZone) },
        dealId: b.dealId,
        idempotencyKey: `visit-confirmation:${b.task.id}`,
      },
    );
    if (ack.status === "sent" || ack.status === "queued") return "whatsapp";
    logger().info({ taskId: b.task.id, status: ack.status, reason: ack.reason }, "visit confirmation not sent by WhatsApp");
  } catch (err) {
    logger().warn({ err, taskId: b.task.id }, "visit confirmation failed");
  }
  return "none";
}
