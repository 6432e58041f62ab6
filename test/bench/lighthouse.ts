/**
 * Lighthouse (mobile preset: the default emulation and simulated throttling) on the home,
 * catalogue, location and listing pages of a running site, driving Debian's Chromium.
 *
 *   npm run demo                                   # or any server with the demo seeded
 *   npm run bench:lighthouse                       # SITE_URL=http://demo.localhost:3000 by default
 *   SITE_URL=http://demo.localhost:3332 LH_LOCALES=pt-BR,en,es npm run bench:lighthouse
 *   PRICING_URL=http://localhost:3000/c/<token> npm run bench:lighthouse   # the pricing tool's steps
 *   LH_EXTRA_PATHS=/contato,/blog npm run bench:lighthouse                 # more site pages beside the four
 *
 * Targets (issue #15): performance ≥ 95, accessibility 100, best practices ≥ 95, SEO 100. The
 * pricing tool (issue #16) has the same targets except SEO, which is not measured: its pages are
 * `noindex` on purpose (a private link), which Lighthouse's SEO category counts against them.
 *
 * Share pages (issue #16): `SHARE_URLS` (comma-separated, e.g. the demo links the seed prints) are
 * audited too, against performance ≥ 95 and accessibility 100 (SEO is not a target: share pages
 * are noindex on purpose). `LH_ONLY=share` skips the site pages.
 *
 *   SHARE_URLS=http://demo.localhost:3000/p/<token>,http://demo.localhost:3000/p/<token2> LH_ONLY=share npm run bench:lighthouse
 */
import http from "node:http";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const SITE = (process.env.SITE_URL ?? "http://demo.localhost:3000").replace(/\/$/, "");
const LOCALES = (process.env.LH_LOCALES ?? "pt-BR").split(",");
const PRICING = process.env.PRICING_URL?.replace(/\/$/, "");
const TARGET: Record<string, number> = PRICING
  ? { performance: 95, accessibility: 100, "best-practices": 95 }
  : { performance: 95, accessibility: 100, "best-practices": 95, seo: 100 };
const SHARE_URLS = (process.env.SHARE_URLS ?? "")
  .split(",")
  .map((u) => u.trim())
  .filter(Boolean);
const SHARE_TARGET = { performance: 95, accessibility: 100 } as const;

/** GET a page of the site; Node does not resolve `*.localhost` the way browsers do, so those go to localhost with their Host. */
function get(url: string): Promise<string> {
  const u = new URL(url);
  const local = u.hostname.endsWith(".localhost");
  return new Promise((resolve, reject) => {
    const req = http.request({ host: local ? "localhost" : u.hostname, port: u.port || 80, path: u.pathname + u.search, headers: { host: u.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    req.on("error", reject);
    req.end();
  });
}

async function discover(): Promise<{ name: string; path: string }[]> {
  const html = await get(`${SITE}/imoveis`);
  const listing = html.match(/href="(\/imovel\/[^"]+)"/)?.[1];
  const loc = await get(`${SITE}/sitemap.xml`);
  const location = [...loc.matchAll(/<loc>[^<]*?(\/imoveis\/[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+)<\/loc>/g)][0]?.[1];
  if (!listing || !location) throw new Error(`Could not find a listing and a location page on ${SITE}: is the demo seeded and served there?`);
  return [
    { name: "home", path: "/" },
    { name: "catalogue", path: "/imoveis" },
    { name: "location", path: location },
    { name: "listing", path: listing },
  ];
}

/** The pricing tool's city, neighbourhood, profile and estimate steps, from the tool's own first city and neighbourhood. */
async function discoverPricing(base: string): Promise<{ name: string; path: string }[]> {
  const city = (await get(base)).match(/name="city" value="([^"]+)"/)?.[1];
  if (!city) throw new Error(`No city on ${base}: is the tool's tenant seeded with sale listings?`);
  const hood = (await get(`${base}?step=neighborhood&city=${city}`)).match(/<option value="([^"]+)"><\/option>/)?.[1];
  if (!hood) throw new Error(`No neighbourhood suggested for ${city} on ${base}.`);
  const answers = `city=${city}&neighborhood=${encodeURIComponent(hood)}`;
  return [
    { name: "city", path: "" },
    { name: "hood", path: `?step=neighborhood&city=${city}` },
    { name: "profile", path: `?step=profile&${answers}&nbok=1` },
    { name: "estimate", path: `?step=estimate&${answers}&type=apartment&area=80&bedrooms=2&bathrooms=2&parking=1` },
  ];
}

async function main() {
  const pages = process.env.LH_ONLY === "share" ? [] : PRICING ? await discoverPricing(PRICING) : await discover();
  // More site pages to audit beside the four targets (`LH_EXTRA_PATHS=/contato,/blog`), named by their path.
  if (!PRICING && process.env.LH_ONLY !== "share")
    for (const path of (process.env.LH_EXTRA_PATHS ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean))
      pages.push({ name: path, path });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  let failed = 0;
  let audited = 0;
  const notAudited: string[] = [];
  try {
    for (const locale of LOCALES) {
      for (const p of pages) {
        const prefix = locale === "pt-BR" ? "" : `/${locale}`;
        const url = PRICING
          ? `${new URL(PRICING).origin}${prefix}${new URL(PRICING).pathname}${p.path}`
          : `${SITE}${prefix}${p.path === "/" && prefix ? "" : p.path}`;
        const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: Object.keys(TARGET) });
        if (result!.lhr.runtimeError) {
          // A site page that Lighthouse cannot load (a 404, a 500) fails: these pages must answer 200.
          console.log(`${locale.padEnd(5)} ${p.name.padEnd(9)} NOT AUDITED: ${result!.lhr.runtimeError.code} (${url})`);
          notAudited.push(url);
          failed++;
          continue;
        }
        audited++;
        const cats = result!.lhr.categories;
        const scores = Object.fromEntries(Object.keys(TARGET).map((k) => [k, Math.round((cats[k]?.score ?? 0) * 100)]));
        const misses = Object.keys(TARGET).filter((k) => scores[k] < TARGET[k]);
        failed += misses.length ? 1 : 0;
        const audits = result!.lhr.audits;
        console.log(
          `${locale.padEnd(5)} ${p.name.padEnd(9)} perf ${scores.performance} · a11y ${scores.accessibility} · best ${scores["best-practices"]}${PRICING ? "" : ` · seo ${scores.seo}`}` +
            `  (LCP ${audits["largest-contentful-paint"]?.displayValue ?? "?"}, TBT ${audits["total-blocking-time"]?.displayValue ?? "?"}, CLS ${audits["cumulative-layout-shift"]?.displayValue ?? "?"})` +
            (misses.length ? `  BELOW TARGET: ${misses.join(", ")}` : ""),
        );
        for (const k of misses) {
          const refs = cats[k]?.auditRefs ?? [];
          const bad = refs.filter((r) => (audits[r.id]?.score ?? 1) < 1 && r.weight > 0).map((r) => r.id);
          console.log(`        ${k}: ${bad.slice(0, 8).join(", ")}`);
        }
      }
    }
    for (const url of SHARE_URLS) {
      const html = await get(url);
      const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: Object.keys(SHARE_TARGET) });
      if (result!.lhr.runtimeError) {
        // Lighthouse audits only 2xx pages: the 401/410 state pages are checked by axe in e2e/share-pages.spec.ts.
        console.log(`share ${new URL(url).pathname.padEnd(40)} not audited: ${result!.lhr.runtimeError.code}`);
        notAudited.push(url);
        continue;
      }
      audited++;
      const cats = result!.lhr.categories;
      const audits = result!.lhr.audits;
      const perf = Math.round((cats.performance?.score ?? 0) * 100);
      const a11y = Math.round((cats.accessibility?.score ?? 0) * 100);
      const misses = [perf < SHARE_TARGET.performance ? "performance" : "", a11y < SHARE_TARGET.accessibility ? "accessibility" : ""].filter(Boolean);
      failed += misses.length ? 1 : 0;
      console.log(
        `share ${new URL(url).pathname.padEnd(40)} perf ${perf} · a11y ${a11y} · HTML ${(Buffer.byteLength(html) / 1024).toFixed(1)} KB` +
          `  (LCP ${audits["largest-contentful-paint"]?.displayValue ?? "?"}, TBT ${audits["total-blocking-time"]?.displayValue ?? "?"}, CLS ${audits["cumulative-layout-shift"]?.displayValue ?? "?"})` +
          (misses.length ? `  BELOW TARGET: ${misses.join(", ")}` : ""),
      );
    }
  } finally {
    chrome.kill();
  }
  // Says what was measured: "every page meets" only when pages were audited at all.
  const skipped = notAudited.length ? `; ${notAudited.length} not audited (not a 2xx page)` : "";
  if (failed) console.log(`${failed} page(s) below a target or not audited; ${audited} audited${skipped}.`);
  else if (!audited) {
    console.log(`No page was audited${skipped}: nothing measured.`);
    process.exitCode = 1;
  } else console.log(`All ${audited} audited page(s) meet every target${skipped}.`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
