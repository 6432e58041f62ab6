const ORIGIN = "http://dummy.invalid";

/**
 * True when `v` is a path on the same site (`/imoveis?q=1#x`), and nothing a browser could take
 * for another origin. `startsWith("/") && !startsWith("//")` is not enough: browsers read `\` as
 * `/` (`/\evil.example` is `//evil.example`) and drop tabs and newlines anywhere in a URL
 * (`/\t/evil.example` is `//evil.example` too). So: one leading slash, no backslash (also not as
 * `%5C`, which a decoding proxy could turn into one), no control character or whitespace, no
 * encoded second slash, and the WHATWG parser must keep it on the base origin.
 *
 * Callers emit `v` itself, never the parser's normalised form.
 */
export function isSitePath(v: string): boolean {
  if (v.length === 0 || v[0] !== "/" || v[1] === "/") return false;
  // \s covers Unicode spaces; \p{C} covers C0/C1 controls, format characters and lone surrogates.
  if (/[\\\s\p{C}]/u.test(v)) return false;
  if (/%5c/i.test(v) || /^\/%2f/i.test(v)) return false;
  try {
    const u = new URL(v, ORIGIN);
    // `/a/..//evil` normalises to `//evil`: same origin here, but a server that normalises and
    // redirects would send a browser off-site.
    return u.origin === ORIGIN && !u.pathname.startsWith("//");
  } catch {
    return false;
  }
}

/** `v` trimmed when it is a site path, otherwise `fallback`. */
export function sitePathOr<T>(v: unknown, fallback: T): string | T {
  if (typeof v !== "string") return fallback;
  const t = v.trim();
  return isSitePath(t) ? t : fallback;
}
