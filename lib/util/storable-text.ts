/**
 * Text PostgreSQL can store, made from text it cannot: NUL characters dropped, lone UTF-16
 * surrogates (`\ud800`, not Unicode text) replaced by U+FFFD. For inputs that must never be refused
 * for junk (a portal's lead, a visitor's form, a provider's event); API bodies are refused instead
 * (`assertStorable` in lib/http/read-json.ts), so an integrator learns what was wrong.
 */
const NUL = /\u0000/g;
/** In `u` mode a pair is one code point, so only an unpaired surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/gu;

/** True when `s` holds an unpaired UTF-16 surrogate (a pair is one code point in `u` mode). */
export const hasLoneSurrogate = (s: string) => /\p{Cs}/u.test(s);

const storable = (s: string) => !s.includes("\u0000") && !hasLoneSurrogate(s);

export function storableText(s: string): string {
  return storable(s) ? s : s.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * An identifier (a dedupe key such as a lead's `originLeadId`) as storable text that stays
 * distinct: cleaning would make `o\ud800` and `o\ud801` one key, so such a value is kept as its
 * JSON string literal instead (`"o\ud800"`, escapes written out); a storable value is unchanged.
 */
export function storableKey(s: string): string {
  return storable(s) ? s : JSON.stringify(s);
}

/**
 * The same through a parsed JSON value (strings and keys, at any depth), cleaned in place (pass a
 * value of your own, such as a freshly parsed body); iterative, so depth cannot exhaust the stack.
 * A key that becomes `__proto__` once cleaned is dropped: setting it would change the object's
 * prototype.
 */
export function storableJson<T>(value: T): T {
  const fix = (v: unknown): unknown => (typeof v === "string" ? storableText(v) : v);
  const root = fix(value);
  const stack: unknown[] = [root];
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
        if (key !== k) {
          delete o[k];
          if (key === "__proto__") continue;
        }
        o[key] = x;
        stack.push(x);
      }
    }
  }
  return root as T;
}
