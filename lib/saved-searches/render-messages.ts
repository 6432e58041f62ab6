import { brandPalette } from "../brand/brand-colors";
import type { AlertT } from "./texts";

const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type Brand = { name: string; primaryColor: string };
export type AlertItem = { title: string; url: string; price: string; facts: string; photo: string | null; reason: "new" | "price_drop" };

/** The message frame every saved-search e-mail shares: the brand band, the body, a small footer. */
function frame(brand: Brand, lang: string, body: string, footer: string): string {
  const p = brandPalette(brand.primaryColor);
  return `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>
<body style="margin:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#fff;border-radius:8px;overflow:hidden">
<tr><td style="background:${p.color};color:${p.onColor};padding:16px 20px;font-size:20px;font-weight:bold">${esc(brand.name)}</td></tr>
<tr><td style="padding:20px;font-size:15px;line-height:1.5">${body}</td></tr>
<tr><td style="padding:12px 20px;font-size:12px;color:#555;border-top:1px solid #eee">${footer}</td></tr>
</table></td></tr></table></body></html>`;
}

const button = (brand: Brand, href: string, label: string) => {
  const p = brandPalette(brand.primaryColor);
  return `<a href="${esc(href)}" style="display:inline-block;background:${p.color};color:${p.onColor};padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${esc(label)}</a>`;
};

export function confirmationMessage(t: AlertT, lang: string, brand: Brand, filters: string, confirmUrl: string) {
  const subject = t("confirmSubject", { site: brand.name });
  const intro = t("confirmBody", { filters });
  const text = `${intro}\n\n${confirmUrl}\n\n${t("ignore")}`;
  const html = frame(brand, lang, `<p>${esc(intro)}</p><p>${button(brand, confirmUrl, t("confirmButton"))}</p>`, esc(t("ignore")));
  return { subject, text, html };
}

export function alertMessage(t: AlertT, lang: string, brand: Brand, filters: string, items: AlertItem[], urls: { all: string; unsubscribe: string }) {
  const subject = items.length === 1 ? t("alertSubjectOne", { site: brand.name }) : t("alertSubjectMany", { count: items.length, site: brand.name });
  const intro = t("alertIntro", { filters });
  const badge = (i: AlertItem) => (i.reason === "price_drop" ? t("priceDrop") : t("newListing"));
  const text = [
    intro,
    "",
    ...items.flatMap((i) => [`• [${badge(i)}] ${i.title} — ${i.price}`, `  ${i.facts}`, `  ${i.url}`, ""]),
    `${t("seeAll")}: ${urls.all}`,
    "",
    `${t("unsubscribe")}: ${urls.unsubscribe}`,
  ].join("\n");
  const cards = items
    .map(
      (i) => `<tr><td style="padding:12px 0;border-bottom:1px solid #eee">
${i.photo ? `<img src="${esc(i.photo)}" alt="" width="560" style="max-width:100%;height:auto;border-radius:6px;display:block;margin-bottom:8px">` : ""}
<div style="font-size:12px;font-weight:bold;color:${i.reason === "price_drop" ? "#b42318" : "#067647"}">${esc(badge(i))}</div>
<div style="font-size:17px;font-weight:bold;margin:4px 0"><a href="${esc(i.url)}" style="color:#111">${esc(i.title)}</a></div>
<div style="font-size:16px">${esc(i.price)}</div><div style="color:#555">${esc(i.facts)}</div></td></tr>`,
    )
    .join("");
  const body = `<p>${esc(intro)}</p><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${cards}</table><p>${button(brand, urls.all, t("seeAll"))}</p>`;
  const html = frame(brand, lang, body, `<a href="${esc(urls.unsubscribe)}" style="color:#555">${esc(t("unsubscribe"))}</a>`);
  return { subject, text, html };
}
