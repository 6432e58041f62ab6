import { and, asc, eq } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { DbOrTx } from "../../db/client";
import { messagingChannels, type MessagingChannelRow } from "../../db/schema";
import { config } from "../config";
import { credentialsOf } from "../messaging/providers/adapter-for";
import { smtpFailure, transportFor, withSignal } from "../messaging/email/smtp-send";
import { loadTenant } from "../tenants/load-tenant";
import { processGlobal } from "../util/process-global";

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

/** Sends one message as a tenant; resolved once by `tenantMailer` and reusable for many messages. */
export type TenantMailer = (mail: TenantMail, signal?: AbortSignal) => Promise<MailSent>;

/**
 * How a tenant's messages go out, as the tenant's brand: through the tenant's own SMTP server (its
 * e-mail channel: the same guarded connection as the channel's replies, so a private address is
 * refused in production), else through the service's `SMTP_URL` (an operator's server, trusted as
 * configured) from `MAIL_FROM`. Resolved once (the brand, the channel), so a batch of alerts reads
 * them once per tenant. The mailer throws `MailNotConfiguredError` when there is neither, and a
 * `GatewayError` (kind `timeout`, `unauthorized`, `http`, `unreachable`) when the server fails.
 * Nothing is stored here: callers keep their own record of what was sent (an alert's delivery row).
 */
export async function tenantMailer(db: DbOrTx, tenantId: string): Promise<TenantMailer> {
  const tenant = await loadTenant(db, tenantId);
  const name = tenant.settings.branding.name;
  const channel = await tenantEmailChannel(db, tenantId);
  const creds = channel ? credentialsOf(channel) : null;
  if (creds?.smtp) {
    const smtp = creds.smtp;
    const address = creds.sessionName;
    return withBudget(async (mail, signal) => {
      let transport: Awaited<ReturnType<typeof transportFor>> | undefined;
      try {
        transport = await withSignal(transportFor(smtp, creds.apiKey, address.split("@")[1] ?? "localhost"), signal, () => {});
        const t = transport;
        const info = await withSignal(t.sendMail(message(mail, { name, address })), signal, () => t.close());
        return { messageId: String(info.messageId ?? ""), from: address, via: "channel" };
      } catch (err) {
        throw smtpFailure(err);
      } finally {
        transport?.close();
      }
    });
  }
  return withBudget(async (mail, signal) => {
    const url = config().SMTP_URL;
    if (!url) throw new MailNotConfiguredError();
    const address = serviceFromAddress();
    try {
      // The signal goes to the pool too: a message whose budget ran out while queued is dropped
      // from the queue, and one on the wire has its connection closed, so a message given up here
      // (and retried later by its caller) is never also delivered late.
      const info = await withSignal(servicePool(url).sendMail({ ...message(mail, { name, address }), signal }), signal, () => {});
      return { messageId: String(info.messageId ?? ""), from: address, via: "service" };
    } catch (err) {
      throw smtpFailure(err);
    }
  });
}

/**
 * The caller's signal, else `MESSAGING_SEND_TIMEOUT_MS` on a timer cleared when the send ends
 * (`AbortSignal.timeout` would fire for every message long after it was sent: a burst of alerts
 * paid for thousands of late aborts).
 */
function withBudget(send: (mail: TenantMail, signal: AbortSignal) => Promise<MailSent>): TenantMailer {
  return async (mail, signal) => {
    if (signal) return send(mail, signal);
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), config().MESSAGING_SEND_TIMEOUT_MS);
    try {
      return await send(mail, budget.signal);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Sends one message for a tenant (see `tenantMailer`). */
export async function sendTenantMail(db: DbOrTx, tenantId: string, mail: TenantMail, signal?: AbortSignal): Promise<MailSent> {
  return (await tenantMailer(db, tenantId))(mail, signal);
}

/** Connections to `SMTP_URL` one process keeps open at most (an alert burst shares them). */
const SERVICE_SMTP_CONNECTIONS = 8;

/**
 * The process's pooled connections to the service's SMTP server: a burst of alerts reuses a few
 * connections instead of a connection, greeting and login per message (41 alerts a second with
 * one connection each, measured in `bench:saved-searches`). A connection idle for a second is
 * closed, so none lingers on the server between bursts. A message is never requeued on another
 * connection after its own dropped mid-transfer: the server may have taken it, and the caller
 * retries what failed (sending twice is worse than a later retry).
 */
function servicePool(url: string): Transporter {
  const pools = processGlobal("service-smtp-pools", () => new Map<string, Transporter>());
  let pool = pools.get(url);
  if (!pool) {
    pool = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: SERVICE_SMTP_CONNECTIONS,
      maxMessages: 1000,
      maxRequeues: 0,
      idleTimeout: 1000,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    pools.set(url, pool);
  }
  return pool;
}
