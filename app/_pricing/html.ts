/**
 * A tagged template for the pricing tool's HTML: every interpolated value is escaped unless it
 * is already `Html` (another template's output), arrays are joined, `null`/`undefined`/`false`
 * print nothing. Attribute values are always written in double quotes in the templates.
 */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

function show(v: unknown): string {
  if (v === null || v === undefined || v === false) return "";
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(show).join("");
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += show(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup (constants written in this code, never user or tenant input). */
export const raw = (s: string) => new Html(s);
