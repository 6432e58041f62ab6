/**
 * Text PostgreSQL can store, made from text it cannot: NUL characters dropped, lone UTF-16
 * surrogates (`\ud800`, not Unicode text) replaced by U+FFFD. For inputs that must never be refused
 * for junk (a portal's lead, a visitor's form, a provider's event); API bodies are refused instead
 * (`assertStorable` in lib/http/read-json.ts), so an integrator learns what was wrong.
 */
const NUL = /\u0000/g;
/** In `u` mode a pair is one code point, so only an unpaired surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/gu;

export function storableText(s: string): string {
  return s.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/** The same through a parsed JSON value (strings and keys, at any depth); iterative, so depth cannot exhaust the stack. */
export function storableJson<T>(value: T): T {
  const fix = (v: unknown): unknown => (typeof v === "string" ? storableText(v) : v);
  const root = { v: fix(value) as unknown };
  const stack: unknown[] = [root.v];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        v[i] = fix(v[i]);
        stack.push(v[i]);
      }
    } else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const key = storableText(k);
        const x = fix(o[k]);
        if (key !== k) delete o[k];
        o[key] = x;
        stack.push(x);
      }
    }
  }
  return root.v as T;
}
