import type { DbOrTx } from "../../db/client";
import { logger } from "../log/logger";
import { sendTenantMail } from "../mail/send-tenant-mail";
import type { Booking } from "./book-visit";
import { confirmationText } from "./confirmation";
import { buildIcs } from "./ics";

const SUBJECT = {
  "pt-BR": (code: string) => `Visita confirmada · ${code}`,
  en: (code: string) => `Visit confirmed · ${code}`,
  es: (code: string) => `Visita confirmada · ${code}`,
} as const;
const SUMMARY = {
  "pt-BR": (title: string) => `Visita: ${title}`,
  en: (title: string) => `Visit: ${title}`,
  es: (title: string) => `Visita: ${title}`,
} as const;
const ATTACHED = {
  "pt-BR": "O convite anexo (.ics) adiciona a visita à sua agenda.",
  en: "The attached invitation (.ics) adds the visit to your calendar.",
  es: "La invitación adjunta (.ics) añade la visita a tu agenda.",
} as const;

/** The visit as a calendar file: UTC times, the place as the listing page shows it (no street number). */
export function visitIcs(b: Booking, stamp = new Date()): string {
  const locale = b.data.locale;
  return buildIcs({
    uid: `visit-${b.task.id}@${new URL(b.url).hostname}`,
    stamp,
    start: new Date(b.slot.start),
    end: new Date(b.slot.end),
    summary: `${SUMMARY[locale](b.listingTitle)} (${b.listingCode})`,
    description: confirmationText(b, b.timeZone),
    location: b.place || undefined,
    url: b.url,
  });
}

/**
 * Mails the visitor's confirmation with the visit as an `.ics` attachment, after the booking
 * committed, through `sendTenantMail` (the tenant's e-mail channel, else the service's SMTP). Sent
 * whenever the visitor gave an address, WhatsApp or not: only the e-mail carries the calendar file.
 * A failure (no SMTP configured, server down) is logged and leaves the booking; answers whether it went.
 */
export async function sendVisitEmail(db: DbOrTx, b: Booking): Promise<boolean> {
  const to = b.data.contact.email;
  if (!to) return false;
  const locale = b.data.locale;
  try {
    await sendTenantMail(db, b.task.tenantId, {
      to,
      subject: SUBJECT[locale](b.listingCode),
      text: `${confirmationText(b, b.timeZone)}\n\n${ATTACHED[locale]}\n${b.url}\n`,
      attachments: [{ filename: "visita.ics", content: visitIcs(b), contentType: "text/calendar; charset=utf-8; method=PUBLISH" }],
    });
    return true;
  } catch (err) {
    logger().warn({ err, taskId: b.task.id }, "visit confirmation e-mail not sent");
    return false;
  }
}
