import { and, asc, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { DbOrTx } from "../../db/client";
import { messagingChannels, type MessagingChannelRow } from "../../db/schema";
import { config } from "../config";
import { credentialsOf } from "../messaging/providers/adapter-for";
import { smtpFailure, transportFor, withSignal } from "../messaging/email/smtp-send";
import { loadTenant } from "../tenants/load-tenant";

export type MailAttachment = { filename: string; content: string | Buffer; contentType?: string };

/** A transactional message of the service on behalf of a tenant (confirmations, alerts, visit bookings). */
export type TenantMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` of alerts (RFC 8058). */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
  replyTo?: string;
};

export type MailSent = { messageId: string; from: string; via: "channel" | "service" };

/** Neither the tenant nor the service has an SMTP server to send with. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super("no SMTP server: the tenant has no e-mail channel and SMTP_URL is not set");
    this.name = "MailNotConfiguredError";
  }
}

/** The tenant's own SMTP server: its oldest e-mail messaging channel that really sends (not a mock one). */
async function tenantEmailChannel(db: DbOrTx, tenantId: string): Promise<MessagingChannelRow | null> {
  const [row] = await db
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.tenantId, tenantId), eq(messagingChannels.provider, "smtp"), eq(messagingChannels.mock, false)))
    .orderBy(asc(messagingChannels.createdAt))
    .limit(1);
  return row ?? null;
}

/** `MAIL_FROM`'s address, else `no-reply@` the host of `SMTP_URL`. */
function serviceFromAddress(): string {
  const c = config();
  if (c.MAIL_FROM) return c.MAIL_FROM;
  const host = c.SMTP_URL ? new URL(c.SMTP_URL).hostname : "localhost";
  return `no-reply@${host.includes(".") ? host : "localhost"}`;
}

function message(mail: TenantMail, from: { name: string; address: string }) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
    replyTo: mail.replyTo,
    attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
  };
}

/**
 * Sends one message for a tenant, as the tenant's brand: through the tenant's own SMTP server (its
 * e-mail channel: the same guarded connection as the channel's replies, so a private address is
 * refused in production), else through the service's `SMTP_URL` (an operator's server, trusted as
 * configured) from `MAIL_FROM`. Throws `MailNotConfiguredError` when there is neither, and a
 * `GatewayError` (kind `timeout`, `unauthorized`, `http`, `unreachable`) when the server fails.
 * Nothing is stored here: callers keep their own record of what was sent (an alert's delivery row).
 */
export async function sendTenantMail(
  db: DbOrTx,
  tenantId: string,
  mail: TenantMail,
  signal = AbortSignal.timeout(config().MESSAGING_SEND_TIMEOUT_MS),
): Promise<MailSent> {
  const tenant = await loadTenant(db, tenantId);
  const name = tenant.settings.branding.name;
  const channel = await tenantEmailChannel(db, tenantId);
  if (channel) {
    const creds = credentialsOf(channel);
    if (creds.smtp) {
      const address = creds.sessionName;
      let transport: Awaited<ReturnType<typeof transportFor>> | undefined;
      try {
        transport = await withSignal(transportFor(creds.smtp, creds.apiKey, address.split("@")[1] ?? "localhost"), signal, () => {});
        const t = transport;
        const info = await withSignal(t.sendMail(message(mail, { name, address })), signal, () => t.close());
        return { messageId: String(info.messageId ?? ""), from: address, via: "channel" };
      } catch (err) {
        throw smtpFailure(err);
      } finally {
        transport?.close();
      }
    }
  }
  const url = config().SMTP_URL;
  if (!url) throw new MailNotConfiguredError();
  const address = serviceFromAddress();
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  try {
    const info = await withSignal(transport.sendMail(message(mail, { name, address })), signal, () => transport.close());
    return { messageId: String(info.messageId ?? ""), from: address, via: "service" };
  } catch (err) {
    throw smtpFailure(err);
  } finally {
    transport.close();
  }
}
