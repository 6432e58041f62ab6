/**
 * Share pages (issue #16) against a running server: for each link, the page's status, HTML size
 * and time, and the preview image's render time as the server reports it (`Server-Timing: og`),
 * first (rendered; run it on a freshly started server) and again (from the in-process cache), in
 * each locale given.
 *
 *   SHARE_URLS=http://demo.localhost:3000/p/<token>,... [LH_LOCALES=pt-BR,en] npm run bench:share
 *
 * Targets: HTML ≤ 60 KB, preview image ≤ 300 ms (then cached).
 */
import http from "node:http";

const URLS = (process.env.SHARE_URLS ?? "")
  .split(",")
  .map((u) => u.trim())
  .filter(Boolean);
const LOCALES = (process.env.LH_LOCALES ?? "pt-BR").split(",");

/** Node does not resolve `*.localhost`: those go to localhost with their Host header. */
function get(url: string): Promise<{ status: number; bytes: number; ms: number; timing: string }> {
  const u = new URL(url);
  const local = u.hostname.endsWith(".localhost");
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: local ? "localhost" : u.hostname, port: u.port || 80, path: u.pathname + u.search, headers: { host: u.host } }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started, timing: String(res.headers["server-timing"] ?? "") }));
    });
    req.on("error", reject);
    req.end();
  });
}

const ogMs = (timing: string) => Number(/og;dur=([\d.]+)/.exec(timing)?.[1] ?? NaN);

async function main() {
  if (!URLS.length) throw new Error("Set SHARE_URLS to the share links to measure (the demo seed prints them).");
  const rendered: number[] = [];
  const cached: number[] = [];
  let worstHtml = 0;
  for (const locale of LOCALES) {
    for (const raw of URLS) {
      const u = new URL(raw);
      const url = locale === "pt-BR" ? raw : `${u.origin}/${locale}${u.pathname}`;
      // The image first, on a fresh server: a real render (opening the page renders it in the background).
      const first = await get(`${url}/og`);
      const page = await get(url);
      if (page.status === 200) worstHtml = Math.max(worstHtml, page.bytes);
      const again = await get(`${url}/og`);
      const r = ogMs(first.timing);
      const c = ogMs(again.timing);
      if (/rendered/.test(first.timing)) rendered.push(r);
      cached.push(c);
      console.log(
        `${locale.padEnd(5)} ${new URL(url).pathname.padEnd(44)} page ${page.status} ${(page.bytes / 1024).toFixed(1).padStart(5)} KB ${page.ms.toFixed(0).padStart(4)} ms` +
          ` · preview ${first.status} ${/rendered/.test(first.timing) ? `rendered ${r.toFixed(0)} ms` : `cached ${r.toFixed(1)} ms`}, again ${c.toFixed(1)} ms`,
      );
    }
  }
  const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))] ?? NaN;
  console.log(
    `\nHTML largest ${(worstHtml / 1024).toFixed(1)} KB (target ≤ 60 KB). Preview renders: ${rendered.length}, p50 ${q(rendered, 0.5).toFixed(0)} ms, max ${Math.max(...rendered).toFixed(0)} ms (target ≤ 300 ms); cached p50 ${q(cached, 0.5).toFixed(1)} ms.`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
