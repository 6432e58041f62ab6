import dns from "node:dns";
import net from "node:net";
import nodemailer from "nodemailer";
import { addressRefusal } from "../../outbound-fetch/address-policy";
import { hostRefusal } from "../../outbound-fetch/guarded-lookup";
import { GatewayError } from "../providers/gateway-http";

export const SMTP_TLS = ["implicit", "starttls", "none"] as const;
export type SmtpSettings = { host: string; port: number; tls: (typeof SMTP_TLS)[number]; user: string | null };

/**
 * The address to connect to for an SMTP host, under the outbound guard's rules: an IP literal or
 * `localhost` is checked as is; a name is resolved once here, every address checked, and the
 * connection goes to the address we checked (no second lookup a rebinding DNS could answer
 * differently). Non-public addresses pass only where WEBHOOKS_ALLOW_PRIVATE_URLS (or a
 * non-production environment) allows them.
 */
async function guardedAddress(host: string): Promise<string> {
  const refusal = hostRefusal(host);
  if (refusal) throw new GatewayError("unreachable", refusal.message);
  if (net.isIP(host)) return host;
  let found: dns.LookupAddress[];
  try {
    found = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new GatewayError("unreachable", `the SMTP host does not resolve: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
  for (const a of found) {
    if (addressRefusal(a.address)) throw new GatewayError("unreachable", `the SMTP host resolves to a non-public address (${addressRefusal(a.address)})`);
  }
  if (!found.length) throw new GatewayError("unreachable", "the SMTP host does not resolve");
  return found[0].address;
}

/** nodemailer's error codes as the send acks know them: only a timeout may have sent. */
export function smtpFailure(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  const e = err as { code?: string; responseCode?: number; message?: string };
  if (e.code === "ETIMEDOUT") return new GatewayError("timeout", "the SMTP server did not answer in time");
  if (e.code === "EAUTH") return new GatewayError("unauthorized", "the SMTP server refused the login", e.responseCode ?? null);
  if (e.responseCode) return new GatewayError("http", `the SMTP server answered ${e.responseCode}`, e.responseCode);
  return new GatewayError("unreachable", `SMTP: ${e.code ?? e.message ?? "error"}`);
}

export async function transportFor(smtp: SmtpSettings, password: string, clientName: string) {
  const address = await guardedAddress(smtp.host);
  return nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.tls === "implicit",
    requireTLS: smtp.tls === "starttls",
    ignoreTLS: smtp.tls === "none",
    // The certificate is checked against the name, not the address we connect to.
    tls: net.isIP(smtp.host) ? undefined : { servername: smtp.host },
    auth: smtp.user ? { user: smtp.user, pass: password } : undefined,
    name: clientName,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** Rejects with a timeout when the signal aborts first. */
export function withSignal<T>(p: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new GatewayError("timeout", "the SMTP server did not answer within the budget"));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new GatewayError("timeout", "the SMTP server did not answer within the budget"));
    };
    signal.addEventListener("abort", abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", abort);
        resolve(v);
      },
      (err) => {
        signal.removeEventListener("abort", abort);
        reject(err);
      },
    );
  });
}

export type OutgoingEmail = {
  from: { address: string; name: string };
  to: string;
  subject: string;
  text: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
};

/** One message through the channel's SMTP server; throws a GatewayError the send acks classify. */
export async function smtpSend(smtp: SmtpSettings, password: string, mail: OutgoingEmail, signal: AbortSignal): Promise<void> {
  let transport: Awaited<ReturnType<typeof transportFor>> | undefined;
  try {
    transport = await withSignal(transportFor(smtp, password, mail.from.address.split("@")[1]), signal, () => {});
    const t = transport;
    await withSignal(
      t.sendMail({
        from: { name: mail.from.name, address: mail.from.address },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: `<${mail.messageId}>`,
        inReplyTo: mail.inReplyTo ? `<${mail.inReplyTo}>` : undefined,
        references: mail.references.length ? mail.references.map((r) => `<${r}>`) : undefined,
      }),
      signal,
      () => t.close(),
    );
  } catch (err) {
    throw smtpFailure(err);
  } finally {
    transport?.close();
  }
}

/** The status check at creation: a connection and login (`verify`), within the signal's budget. */
export async function smtpVerify(smtp: SmtpSettings, password: string, clientName: string, signal: AbortSignal): Promise<void> {
  let transport: Awaited<ReturnType<typeof transportFor>> | undefined;
  try {
    transport = await withSignal(transportFor(smtp, password, clientName), signal, () => {});
    const t = transport;
    await withSignal(t.verify(), signal, () => t.close());
  } catch (err) {
    throw smtpFailure(err);
  } finally {
    transport?.close();
  }
}
