import { isSitePath } from "./site-path";

/**
 * The one check for addresses that come from data (a tenant's menu, a listing's photos, a
 * broker's picture, a logo) before a page links to or loads them. React escapes what it writes,
 * but an escaped `javascript:` link still runs: so only these shapes pass, as written.
 */
const ABSOLUTE = /^https?:\/\/[^\s\\]/i;

/** A link target: http(s), a site path (`/imoveis`, see `isSitePath`), `tel:`, `mailto:` or a fragment; anything else is null. */
export function safeUrl(u: unknown): string | null {
  if (typeof u !== "string") return null;
  const v = u.trim();
  if (ABSOLUTE.test(v) || isSitePath(v) || /^tel:\+?[\d ().-]+$/i.test(v) || /^mailto:[^\s<>"]+$/i.test(v) || /^#[\w-]*$/.test(v)) return v;
  return null;
}

/** An image source: http(s) or a site path; anything else is null. */
export function safeImageUrl(u: unknown): string | null {
  if (typeof u !== "string") return null;
  const v = u.trim();
  return ABSOLUTE.test(v) || isSitePath(v) ? v : null;
}
