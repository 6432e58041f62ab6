import { isSitePath } from "@/lib/util/site-path";

/**
 * Markup for the share pages as strings: the pages answer with their own HTTP status (401, 403,
 * 410) and need no client runtime at all, so they are built without React. Every interpolated
 * value is escaped unless it is already `Html` (made by this tag or `raw`), so text from listings
 * can never become markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function render(p: Part): string {
  if (p === null || p === undefined || p === false) return "";
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return p.map(render).join("");
  return escapeHtml(String(p));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup (built here, never from data). */
export const raw = (s: string) => new Html(s);

/** A link target from data: http(s), tel:, site-relative or a fragment; anything else is dropped. */
export function safeUrl(u: unknown): string | null {
  if (typeof u !== "string") return null;
  const v = u.trim();
  if (/^https?:\/\//i.test(v) || /^tel:\+?[0-9]+$/i.test(v) || isSitePath(v) || v.startsWith("#")) return v;
  return null;
}
