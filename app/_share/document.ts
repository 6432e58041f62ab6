import type { ShareBranding } from "@/lib/share/share-page";
import { brandColor } from "./colors";
import { brandHeader, brandStyle, type Languages } from "./components";
import { html, raw, type Html } from "./html";
import type { T } from "./i18n";

/**
 * The share pages' only stylesheet, inlined (about 4 KB): system fonts, mobile first, the brand
 * colour from custom properties. No external CSS, font or script is requested, so the first
 * paint waits for nothing but the HTML.
 */
export const SHARE_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1c2430;background:#f4f6f9;line-height:1.5;-webkit-text-size-adjust:100%}
a{color:var(--brand-ink)}
img{max-width:100%;height:auto;display:block}
h1,h2{line-height:1.2;margin:0 0 .4em}
h1{font-size:1.55rem}h2{font-size:1.2rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.page{max-width:760px;margin:0 auto;background:#fff;min-height:100vh;padding-bottom:88px}
.brand{background:var(--brand);color:var(--on-brand)}
.brand .in{display:flex;align-items:center;gap:10px;padding:10px 16px;min-height:60px}
.logo{width:40px;height:40px;object-fit:contain;border-radius:8px;background:#fff}
.mark{width:40px;height:40px;border-radius:8px;background:var(--on-brand);color:var(--brand);display:grid;place-items:center;font-weight:700}
.brand-name{font-weight:700;font-size:1.05rem;margin-right:auto}
.langs{display:flex;gap:2px}
.langs a{color:var(--on-brand);text-decoration:none;font-weight:600;font-size:.85rem;padding:10px 8px;min-width:44px;text-align:center;border-radius:6px}
.langs a[aria-current]{outline:2px solid var(--on-brand);outline-offset:-6px}
.pad{padding:0 16px}
.gallery .cover{width:100%;aspect-ratio:3/2;object-fit:cover;background:#e9eef2}
.strip{display:flex;gap:6px;overflow-x:auto;scroll-snap-type:x mandatory;list-style:none;margin:6px 0 0;padding:0 16px 4px}
.strip li{flex:0 0 42%;scroll-snap-align:start}
.strip img{width:100%;aspect-ratio:3/2;object-fit:cover;border-radius:8px;background:#e9eef2}
.eyebrow{margin:16px 0 4px;color:#4f5b6b;font-size:.85rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.title{margin-top:0}
.pad>h1:first-child{margin-top:16px}
.place,.muted{color:#4f5b6b;margin:0 0 6px}
.small{font-size:.85rem}
.lead{font-size:1.05rem}
.price{font-size:1.45rem;font-weight:700;margin:8px 0 12px}
.facts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;margin:0 0 8px;padding:0}
.facts li{background:#f4f6f9;border-radius:10px;padding:8px 12px;display:flex;flex-direction:column;font-size:.95rem}
.facts span{color:#4f5b6b;font-size:.8rem}
.block{margin:24px 0}
.block p{margin:0 0 .8em}
.box{border:1px solid #dfe4ea;border-radius:12px;padding:16px}
.tags{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.tags li{border:1px solid #dfe4ea;border-radius:999px;padding:4px 12px;font-size:.9rem}
.map{margin:0;border-radius:12px;overflow:hidden;border:1px solid #dfe4ea}
.map svg{display:block;width:100%;height:auto}
.map figcaption{padding:10px 14px;font-size:.9rem}
.bf{fill:var(--brand)}.bs{stroke:var(--brand)}.of{fill:var(--on-brand)}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:48px;padding:12px 20px;border-radius:10px;border:0;background:var(--brand);color:var(--on-brand);font:inherit;font-weight:700;text-decoration:none;cursor:pointer}
.btn.ghost{background:#fff;color:var(--brand-ink);border:2px solid var(--brand-ink)}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin:14px 0 0}
.who{display:flex;gap:12px;align-items:center}
.who img{width:56px;height:56px;border-radius:50%;object-fit:cover}
.name{font-weight:700;margin:0}
.agent h2{font-size:1.05rem}
.sim{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px;align-items:end}
.sim label{display:flex;flex-direction:column;font-size:.8rem;font-weight:600;color:#4f5b6b;gap:2px}
.sim .btn{grid-column:1/-1}
input{font:inherit;border:1px solid #8a96a3;border-radius:8px;padding:10px;min-height:48px;width:100%;color:#1c2430;background:#fff}
table{border-collapse:collapse;width:100%;margin:12px 0;font-size:.8rem;table-layout:fixed}
th,td{text-align:left;padding:6px 2px;border-bottom:1px solid #dfe4ea}
td{white-space:nowrap;font-variant-numeric:tabular-nums}
th[scope=row]{width:30%}
.notice{background:#fdecea;color:#8a1c12;border-radius:8px;padding:10px 12px;font-weight:600}
.cards,.stops{list-style:none;margin:0;padding:0 16px;display:grid;gap:14px}
.card{border:1px solid #dfe4ea;border-radius:12px;overflow:hidden;background:#fff}
.card a{display:grid;grid-template-columns:38% 1fr;color:inherit;text-decoration:none;min-height:120px}
.card img,.noimg{width:100%;height:100%;object-fit:cover;background:#e9eef2;aspect-ratio:3/2}
.card-body{display:flex;flex-direction:column;gap:2px;padding:10px 12px}
.card-title{font-weight:700;line-height:1.3}
.card .price{font-size:1.05rem;margin:2px 0}
.stops li{display:flex;gap:10px;align-items:flex-start}
.stops .card{flex:1}
.num{flex:0 0 32px;height:32px;border-radius:50%;background:var(--brand);color:var(--on-brand);display:grid;place-items:center;font-weight:700;margin-top:10px}
.stop-meta{font-size:.9rem}
.tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;list-style:none;margin:12px 0;padding:0}
.tiles li{background:#f4f6f9;border-radius:12px;padding:12px;display:flex;flex-direction:column}
.tiles b{font-size:1.5rem}
.tiles span{font-size:.8rem;color:#4f5b6b}
.chart{margin:0}.chart svg{width:100%;height:auto}
.key{display:inline-block;width:12px;height:12px;border-radius:3px;vertical-align:-1px;margin:0 4px 0 0}
.bar-key{background:var(--brand)}.dot-key{background:#111418;border-radius:50%;margin-left:10px}
.pager{display:flex;gap:14px;flex-wrap:wrap;align-items:center;padding-top:12px;padding-bottom:12px}
.pager a{min-height:44px;display:inline-flex;align-items:center}
.bar{position:fixed;left:0;right:0;bottom:0;padding:10px 16px calc(10px + env(safe-area-inset-bottom));background:rgba(255,255,255,.96);border-top:1px solid #dfe4ea;display:flex;justify-content:center}
.bar .btn{width:100%;max-width:728px}
.state{padding:32px 16px}
.state form{display:grid;gap:10px;max-width:360px;margin-top:16px}
.state label{font-weight:600}
footer.foot{padding:24px 16px;color:#4f5b6b;font-size:.85rem}
@media (min-width:700px){h1{font-size:2rem}.strip li{flex-basis:30%}.page{padding-bottom:96px}.card a{grid-template-columns:240px 1fr}}
`.replace(/\n/g, "");

export type OpenGraph = { title: string; description: string; image: string; url: string; siteName: string };

/** A whole share page: the brand band, the body, the footer, the contact bar; noindex and no referrer (the token stays private). */
export function shareDocument(input: {
  lang: string;
  title: string;
  description: string;
  branding: ShareBranding;
  t: T;
  body: Html;
  bar?: Html;
  og?: OpenGraph;
  langs?: Languages;
  /** The first image, preloaded (the largest paint of a listing page). */
  preload?: string | null;
}): Html {
  const { og } = input;
  return html`<!doctype html><html lang="${input.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${input.title}</title><meta name="description" content="${input.description}"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">
<meta name="theme-color" content="${brandColor(input.branding.primaryColor)}"><link rel="icon" href="data:,">
${og ? html`<meta property="og:type" content="website"><meta property="og:title" content="${og.title}"><meta property="og:description" content="${og.description}"><meta property="og:url" content="${og.url}"><meta property="og:site_name" content="${og.siteName}"><meta property="og:locale" content="${input.lang.replace("-", "_")}">
<meta property="og:image" content="${og.image}"><meta property="og:image:type" content="image/png"><meta property="og:image:width" content="1200"><meta property="og:image:height" content="630"><meta property="og:image:alt" content="${og.title}">
<meta name="twitter:card" content="summary_large_image"><meta name="twitter:title" content="${og.title}"><meta name="twitter:description" content="${og.description}"><meta name="twitter:image" content="${og.image}">` : ""}
${input.preload ? html`<link rel="preload" as="image" href="${input.preload}" fetchpriority="high">` : ""}
<style>${raw(SHARE_CSS)}</style></head>
<body style="${brandStyle(input.branding)}"><div class="page">${input.branding.name ? brandHeader(input.branding, input.t, input.langs) : ""}<main>${input.body}</main>
${input.branding.name ? html`<footer class="foot">${input.t("share.sharedBy", { name: input.branding.name })}</footer>` : ""}</div>${input.bar ?? ""}</body></html>`;
}

/** The password form: a plain POST to the page's own address, so it works without JavaScript. */
export function passwordBody(t: T, input: { branding: ShareBranding; action: string; status: 401 | 403 | 429; retryAfterSeconds?: number }): Html {
  const err =
    input.status === 403
      ? t("share.passwordWrong")
      : input.status === 429
        ? t("share.passwordThrottled", { minutes: Math.max(1, Math.ceil((input.retryAfterSeconds ?? 60) / 60)) })
        : null;
  return html`<section class="state" aria-labelledby="pw-title"><h1 id="pw-title">${t("share.passwordTitle")}</h1><p>${t("share.passwordIntro", { name: input.branding.name })}</p>
${err ? html`<p class="notice" role="alert" id="pw-error">${err}</p>` : ""}
<form method="post" action="${input.action}"><label for="pw">${t("share.password")}</label>
<input id="pw" name="password" type="password" autocomplete="current-password" required maxlength="200"${raw(err ? ' aria-invalid="true" aria-describedby="pw-error"' : "")}${raw(input.status !== 401 ? " autofocus" : "")}>
<button class="btn" type="submit">${t("share.unlock")}</button></form></section>`;
}

export function messageBody(title: string, text: string): Html {
  return html`<section class="state"><h1>${title}</h1><p>${text}</p></section>`;
}

export const NEUTRAL_BRANDING: ShareBranding = { name: "", logo: null, primaryColor: "#3d4a5c" };
