import { createHash } from "node:crypto";
import { type AddressObject, simpleParser } from "mailparser";
import { DomainError, invalid } from "../../errors/domain-errors";
import { storableKey, storableText } from "../../util/storable-text";
import type { MediaDescriptor } from "../providers/types";
import { bareMessageId, messageIdList, normalAddress } from "./address";

/** An inbound e-mail as the service keeps it: headers that thread it, the sender, text, attachment descriptors. */
export type InboundEmail = {
  messageId: string;
  inReplyTo: string[];
  references: string[];
  from: { address: string; name: string | null };
  subject: string | null;
  date: Date;
  text: string;
  media: MediaDescriptor[];
};

const TEXT_CAP = 20_000;
/** A date later than this ahead of our clock is the sender's clock (or a forgery): it would pin the thread on top. */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * The body of an inbound-e-mail webhook into one message, by `Content-Type`:
 * - `message/rfc822` (or `text/plain`): the raw MIME message;
 * - `application/json`: an inbound-parse service's JSON, see `fromFields`;
 * - `multipart/form-data` or `application/x-www-form-urlencoded`: the same fields as a form
 *   (SendGrid Inbound Parse, Mailgun routes).
 * Anything that is not an e-mail with a sender is a 400 naming what is missing.
 */
export async function parseInboundEmail(contentType: string | null, raw: Buffer): Promise<InboundEmail> {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (!raw.length) throw invalid("The body is empty: send the e-mail (message/rfc822) or the inbound-parse JSON.", "invalid_email");
  if (type === "message/rfc822" || type === "text/plain") return fromMime(raw);
  if (type === "application/json") {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      throw invalid("The body is not valid JSON.", "invalid_json");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object.", "invalid_json");
    return fromFields(body as Record<string, unknown>, []);
  }
  if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType ?? type } }).formData();
    } catch {
      throw invalid("The form body could not be read.", "invalid_email");
    }
    const fields: Record<string, unknown> = {};
    const files: MediaDescriptor[] = [];
    for (const [k, v] of form.entries()) {
      if (typeof v === "string") fields[k] = v;
      else files.push(descriptor(v.type || null));
    }
    return fromFields(fields, files);
  }
  throw new DomainError(
    "unsupported_media_type",
    "unsupported_media_type",
    `header \`Content-Type\`: ${contentType ? `'${contentType.slice(0, 100)}' is not accepted` : "is required"}; send message/rfc822, application/json, multipart/form-data or application/x-www-form-urlencoded.`,
  );
}

/** The raw MIME message, parsed with mailparser (charsets decoded, HTML-only mail turned into text). */
async function fromMime(raw: Buffer): Promise<InboundEmail> {
  // mailparser reads anything as a body; an e-mail starts with a header field ("Name: value").
  const head = raw.subarray(0, 2000).toString("latin1").replace(/^\s+/, "");
  if (!/^[!-9;-~]{1,100}:/.test(head)) throw invalid("The body is not a MIME message: it must start with header fields such as `From:`.", "invalid_email");
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 2_000_000 });
  } catch (err) {
    throw invalid(`The MIME message could not be parsed: ${(err as Error).message.slice(0, 200)}`, "invalid_email");
  }
  const from = firstAddress(mail.from);
  if (!from) throw invalid("The e-mail has no valid `From` address.", "invalid_email");
  const text = mail.text?.trim() ? mail.text : typeof mail.html === "string" ? htmlToText(mail.html) : "";
  return finish({
    messageId: bareMessageId(mail.messageId),
    inReplyTo: messageIdList(mail.inReplyTo),
    references: messageIdList(mail.references),
    from,
    subject: mail.subject ?? null,
    date: mail.date ?? null,
    text,
    media: mail.attachments.filter((a) => !a.related).map((a) => descriptor(a.contentType)),
  });
}

function firstAddress(a: AddressObject | AddressObject[] | undefined): InboundEmail["from"] | null {
  const list = [a ?? []].flat().flatMap((o) => o.value);
  for (const v of list) {
    const address = normalAddress(v.address);
    if (address) return { address, name: v.name?.trim() || null };
  }
  return null;
}

/**
 * The JSON (or form fields) of the common inbound-parse services. A field holding the whole raw
 * message wins: `raw`, `email` (SendGrid "send raw"), `body-mime` (Mailgun's MIME route),
 * `RawEmail`. Else the parsed fields: sender `FromFull.Email`/`From` (Postmark), `from`/`sender`
 * (Mailgun, SendGrid); `Subject`/`subject`; text `TextBody`/`body-plain`/`text`, else HTML
 * `HtmlBody`/`body-html`/`html`; headers from Postmark `Headers` `[{Name, Value}]`, Mailgun
 * `message-headers` `[[name, value]]` or SendGrid `headers` (the raw header block), with
 * `Message-Id`/`In-Reply-To`/`References` also read as fields; attachments from Postmark
 * `Attachments[].ContentType`, Mailgun `attachments[].content-type`, SendGrid `attachment-info`.
 */
async function fromFields(f: Record<string, unknown>, files: MediaDescriptor[]): Promise<InboundEmail> {
  for (const k of ["raw", "email", "body-mime", "RawEmail"]) {
    if (typeof f[k] === "string" && f[k]) return fromMime(Buffer.from(f[k] as string, "utf8"));
  }
  const headers = headerMap(f);
  const str = (...keys: string[]) => {
    for (const k of keys) if (typeof f[k] === "string" && (f[k] as string).trim()) return f[k] as string;
    return null;
  };
  const fromFull = f.FromFull as { Email?: unknown; Name?: unknown } | undefined;
  const fromText = str("From", "from", "sender") ?? headers.get("from") ?? null;
  const parsedFrom = fromText ? parseAddressText(fromText) : null;
  const address = normalAddress(typeof fromFull?.Email === "string" ? fromFull.Email : parsedFrom?.address);
  if (!address) throw invalid("The e-mail has no valid sender: send `From`/`FromFull.Email` (Postmark), `from` or `sender`.", "invalid_email");
  const name = (typeof fromFull?.Name === "string" && fromFull.Name.trim()) || parsedFrom?.name || null;
  const html = str("HtmlBody", "body-html", "html");
  const text = str("TextBody", "body-plain", "text") ?? (html ? htmlToText(html) : "");
  const dateText = str("Date", "date") ?? headers.get("date") ?? null;
  return finish({
    messageId: bareMessageId(headers.get("message-id") ?? str("Message-Id", "Message-ID", "message-id", "MessageID")),
    inReplyTo: messageIdList(headers.get("in-reply-to") ?? str("In-Reply-To", "in-reply-to")),
    references: messageIdList(headers.get("references") ?? str("References", "references")),
    from: { address, name },
    subject: str("Subject", "subject") ?? headers.get("subject") ?? null,
    date: dateText ? new Date(dateText) : null,
    text,
    media: [...attachmentTypes(f).map(descriptor), ...files],
  });
}

function headerMap(f: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const put = (name: unknown, value: unknown) => {
    if (typeof name === "string" && typeof value === "string" && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), value);
  };
  if (Array.isArray(f.Headers)) for (const h of f.Headers) put((h as any)?.Name, (h as any)?.Value);
  let mg = f["message-headers"];
  if (typeof mg === "string") mg = safeJson(mg);
  if (Array.isArray(mg)) for (const h of mg) if (Array.isArray(h)) put(h[0], h[1]);
  if (typeof f.headers === "string") {
    // A raw header block: continuation lines start with white space.
    for (const line of f.headers
      .replace(/\r\n/g, "\n")
      .replace(/\n[ \t]+/g, " ")
      .split("\n")) {
      const i = line.indexOf(":");
      if (i > 0) put(line.slice(0, i).trim(), line.slice(i + 1).trim());
    }
  }
  return out;
}

function attachmentTypes(f: Record<string, unknown>): (string | null)[] {
  const out: (string | null)[] = [];
  if (Array.isArray(f.Attachments)) for (const a of f.Attachments) out.push(typeof (a as any)?.ContentType === "string" ? (a as any).ContentType : null);
  const mg = typeof f.attachments === "string" ? safeJson(f.attachments) : f.attachments;
  if (Array.isArray(mg)) for (const a of mg) out.push(typeof (a as any)?.["content-type"] === "string" ? (a as any)["content-type"] : null);
  const sg = typeof f["attachment-info"] === "string" ? safeJson(f["attachment-info"] as string) : f["attachment-info"];
  if (sg && typeof sg === "object" && !Array.isArray(sg))
    for (const a of Object.values(sg)) out.push(typeof (a as any)?.type === "string" ? (a as any).type : null);
  return out.slice(0, 50);
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};

/** `"Carla Souza" <carla@example.com>` or a bare address. */
function parseAddressText(v: string): { address: string; name: string | null } | null {
  const m = /^\s*(?:"?([^"<]*?)"?\s*)?<([^<>]+)>\s*$/.exec(v);
  if (m) return { address: m[2].trim(), name: m[1]?.trim() || null };
  return { address: v.trim(), name: null };
}

function descriptor(mimeType: string | null): MediaDescriptor {
  const mime = mimeType?.toLowerCase().split(";")[0].trim() || null;
  const top = mime?.split("/")[0];
  // The bytes are not kept (spec 1 §2.5: descriptors only), so nothing can be fetched from us.
  return { kind: top === "image" || top === "video" || top === "audio" ? top : "document", mimeType: mime, available: false };
}

/** Block elements as line breaks, quotes and scripts dropped, tags removed, the common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, "")
    .replace(/<blockquote[\s\S]*?<\/blockquote>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6])>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/gi, " ")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">")
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&amp;/gi, "&")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function finish(m: Omit<InboundEmail, "messageId" | "date"> & { messageId: string | null; date: Date | null }): InboundEmail {
  const now = Date.now();
  const valid = m.date && Number.isFinite(m.date.getTime()) && m.date.getTime() > 0;
  const date = valid && m.date!.getTime() <= now + FUTURE_SLACK_MS ? m.date! : new Date(now);
  // A message without a Message-ID gets one from its content, so the same message posted twice is still one.
  const messageId =
    m.messageId ??
    `${createHash("sha256")
      .update([m.from.address, m.subject ?? "", valid ? m.date!.toISOString() : "", m.text].join("\u0000"))
      .digest("hex")
      .slice(0, 32)}@no-message-id.invalid`;
  // PostgreSQL stores neither NUL nor lone surrogates: cleaned, not fatal (as the gateway webhooks are).
  const clean = (v: string | null) => (v === null ? null : storableText(v));
  return {
    ...m,
    messageId: storableKey(messageId),
    from: { address: m.from.address, name: clean(m.from.name)?.slice(0, 200) ?? null },
    subject: clean(m.subject)?.slice(0, 500) ?? null,
    date,
    // mailparser turns &nbsp; into U+00A0: a plain space reads (and searches) the same.
    text: storableText(m.text)
      .replace(/\u00a0/g, " ")
      .slice(0, TEXT_CAP),
  };
}
