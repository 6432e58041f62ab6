import { createHash } from "node:crypto";

/** WhatsApp chat-id suffixes: `5511…@c.us` also looks like an address, so these are never e-mail. */
const WHATSAPP_SUFFIX = /@(c\.us|g\.us|lid|s\.whatsapp\.net|newsletter|broadcast)$/i;
const ADDRESS = /^[^\s@#<>()",;:]{1,64}@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)+$/i;

/** A plain e-mail address, lower case, or null. */
export function normalAddress(raw: string | null | undefined): string | null {
  const v = (raw ?? "").trim().toLowerCase();
  return v.length <= 254 && ADDRESS.test(v) && !WHATSAPP_SUFFIX.test(v) ? v : null;
}

/**
 * E-mail chat ids are `<address>` (a thread we opened with a proactive send) or
 * `<address>#<thread key>` (a thread that arrived: the key is a hash of its root `Message-ID`).
 * The correspondent's address, or null for a chat id that is not one of these.
 */
export function emailAddressOfChatId(chatId: string): string | null {
  const [address, key, ...rest] = chatId.split("#");
  if (rest.length || (key !== undefined && !/^[0-9a-f]{12}$/.test(key))) return null;
  return normalAddress(address);
}

/** The chat id of a thread that arrived from `address` with this root message id. */
export const threadChatId = (address: string, rootMessageId: string) => `${address}#${createHash("sha256").update(rootMessageId).digest("hex").slice(0, 12)}`;

/** `c•••@example.com`: the first character of the local part and the domain (spec 1 §2.5 masks handles). */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return `${address.slice(0, 1)}•••${address.slice(at)}`;
}

/** A `Message-ID` without its angle brackets and spaces; null when nothing is left. */
export function bareMessageId(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const v = raw.trim().replace(/^<|>$/g, "").trim();
  return v && v.length <= 500 && !/\s/.test(v) ? v : null;
}

/** Every `<id>` of a `References`/`In-Reply-To` header (or ids given as a list), in order, without repeats. */
export function messageIdList(raw: unknown): string[] {
  const parts = Array.isArray(raw)
    ? raw.flatMap((r) => (typeof r === "string" ? r.split(/\s+/) : []))
    : typeof raw === "string"
      ? (raw.match(/<[^<>\s]+>|[^\s<>,]+/g) ?? [])
      : [];
  const out: string[] = [];
  for (const p of parts) {
    const id = bareMessageId(p);
    if (id && !out.includes(id)) out.push(id);
  }
  return out.slice(0, 100);
}

const REPLY_PREFIX = /^\s*((re|res|aw|sv|fw|fwd|enc|tr|rv)\s*(\[\d+\])?\s*:\s*)+/i;

/** Whether the subject says it answers or forwards an earlier message (`Re:`, `RES:`, `AW:`, `Fwd:`...). */
export const isReplySubject = (subject: string | null) => Boolean(subject && REPLY_PREFIX.test(subject));

/** The subject without reply/forward prefixes, spaces collapsed, lower case: the fallback thread key. */
export function subjectKey(subject: string | null): string | null {
  const v = (subject ?? "").replace(REPLY_PREFIX, "").replace(/\s+/g, " ").trim().toLowerCase();
  return v ? v.slice(0, 300) : null;
}
