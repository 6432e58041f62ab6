/**
 * Site pages are server-rendered HTML with small plain scripts of ours (hearts, visit booking, map,
 * chat): they carry no React client component, so Next.js's App Router runtime (React DOM, the
 * router, the RSC payload it hydrates the whole document from: about 450 KB of script on every
 * page) does nothing for them but block the main thread. The App Router has no per-route switch to
 * leave it out (vercel/next.js#45009), so our server takes it out of these pages' HTML here.
 *
 * A page opts in with `data-static-page` (the site frame) and opts back out with
 * `data-client-island` (a React island that needs the runtime: the catalogue's map view).
 */
export const STATIC_PAGE_MARK = 'data-static-page=""';
export const CLIENT_ISLAND_MARK = 'data-client-island=""';

/** Next.js's chunks (`/_next/…` scripts and their preloads) and its inline bootstrap and RSC payload scripts. */
const RUNTIME = [
  /<script\b[^>]*\bsrc="\/_next\/[^"]*"[^>]*><\/script>/g,
  /<link\b[^>]*\bas="script"[^>]*\bhref="\/_next\/[^"]*"[^>]*\/?>/g,
  /<script\b[^>]*\bhref="\/_next\/[^"]*"[^>]*\bas="script"[^>]*\/?>/g,
  // Inline: the RSC payload (`self.__next_f`) and Turbopack's bootstrap. Their text escapes `<`, so the first `</script>` ends them.
  /<script(?: id="_R_")?>\(?(?:self\.__next_f|\(?globalThis\["TURBOPACK")[\s\S]*?<\/script>/g,
];

export function wantsStatic(html: string): boolean {
  return html.includes(STATIC_PAGE_MARK) && !html.includes(CLIENT_ISLAND_MARK);
}

/** The page without Next.js's client runtime; anything else (our scripts, JSON-LD, styles) untouched. */
export function dropClientRuntime(html: string): string {
  let out = html;
  for (const re of RUNTIME) out = out.replace(re, "");
  return out;
}
