import { formatMoney, formatNumber } from "@/app/_site/format";
import { accentOnWhite, safeColor, textOn } from "@/lib/share/brand-contrast";
import type { PriceEstimate } from "@/lib/share/price-estimate";
import type { PricingCity } from "@/lib/share/pricing-cities";
import { answerParams, PRICING_STEPS, type Answers, type ContactForm, type FieldErrors, type PricingStep } from "@/lib/share/pricing-flow";
import type { SiteLocale } from "@/lib/sites/render/host-routing";
import { isSitePath } from "@/lib/util/site-path";
import { html, raw, type Html } from "../_share/html";

export type T = (key: string, values?: Record<string, string | number>) => string;

/** What every pricing page knows: the visitor's language, the tenant's branding, where the tool lives. */
export type Frame = {
  t: T;
  locale: SiteLocale;
  languages: SiteLocale[];
  token: string;
  /** `/c/{token}` with the locale prefix: the tool's own address on this host. */
  base: string;
  brand: { name: string; logo: string | null; color: string };
  /** Whether the page loads the small enhancement script (autocomplete, focus). */
  script?: boolean;
};

const LANG_NAMES: Record<SiteLocale, string> = { "pt-BR": "Português", en: "English", es: "Español" };
export const basePath = (locale: SiteLocale, token: string) => `${locale === "pt-BR" ? "" : `/${locale}`}/c/${token}`;

const CSS = raw(`*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;background:#f4f6f9}
a{color:var(--accent)}.wrap{max-width:640px;margin:0 auto;padding:0 16px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:2}
.top{background:var(--brand);color:var(--on-brand)}.top .wrap{display:flex;align-items:center;gap:12px;min-height:60px;flex-wrap:wrap;padding-block:8px}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;font-size:1.1rem;margin-right:auto}.brand img{height:40px;width:auto;max-width:160px;background:#fff;border-radius:6px;padding:2px}
.langs{display:flex;gap:4px;margin:0;padding:0;list-style:none}.langs a{color:var(--on-brand);padding:6px 8px;border-radius:6px;font-size:.9rem;text-decoration:underline}.langs a[aria-current=true]{font-weight:700;text-decoration:none}
main.wrap{padding:20px 16px 40px}.card{background:#fff;border:1px solid #dfe4ea;border-radius:12px;padding:20px;margin:0 0 16px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px}h2{font-size:1.15rem;margin:0 0 8px}h1:focus,#dym:focus{outline:none}.errors:focus{outline:3px solid var(--accent);outline-offset:4px}
.by,.muted,.hint{color:#4f5b6b}.hint{font-size:.9rem;margin:2px 0 6px}
.steps{display:flex;gap:4px;list-style:none;padding:0;margin:12px 0 16px;font-size:.8rem;color:#4f5b6b}.steps li{flex:1;border-top:4px solid #cfd6de;padding-top:4px}.steps li.done,.steps li[aria-current=step]{border-color:var(--accent)}.steps li[aria-current=step]{color:#1c2430;font-weight:700}
fieldset{border:0;padding:0;margin:0 0 16px}legend{font-weight:700;margin-bottom:6px;padding:0}label{display:block;font-weight:600}
.choices{display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}.choice{display:flex;align-items:center;gap:10px;border:1px solid #cfd6de;border-radius:8px;padding:10px 12px;font-weight:500;min-height:48px;background:#fff}
.choice input{width:20px;height:20px;margin:0;accent-color:var(--accent);flex:none}.choice.wide{grid-column:1/-1}.choices.one{grid-template-columns:1fr}
input[type=text],input[type=email],input[type=tel],input[type=number],input:not([type]),select{display:block;width:100%;font:inherit;padding:10px 12px;border:1px solid #6b7785;border-radius:8px;min-height:48px;background:#fff;color:#1c2430}
input:focus,select:focus,button:focus,a:focus{outline:3px solid var(--accent);outline-offset:2px}
.field{margin:0 0 14px}.row{display:grid;grid-template-columns:repeat(3,1fr);gap:10px}.row2{display:grid;grid-template-columns:2fr 1fr;gap:10px}
[aria-invalid=true]{border-color:#b3261e!important;border-width:2px!important}.err{color:#b3261e;font-weight:600;margin:4px 0 6px;font-size:.95rem}
.errors{border:2px solid #b3261e;border-radius:10px;padding:12px 16px;background:#fff5f5;margin:0 0 16px}.errors ul{margin:6px 0 0;padding-left:20px}.errors a{color:#b3261e}
.notice{border-left:4px solid var(--accent);background:#fff;padding:10px 14px;border-radius:6px;margin:0 0 16px}
.actions{display:flex;gap:12px;align-items:center;justify-content:space-between;margin-top:8px;flex-wrap:wrap}
.btn{display:inline-flex;align-items:center;justify-content:center;background:var(--brand);color:var(--on-brand);border:0;border-radius:8px;padding:12px 22px;font:inherit;font-weight:700;cursor:pointer;text-decoration:none;min-height:48px}
.result .value{font-size:2.1rem;font-weight:800;margin:0;line-height:1.2}.result .label{margin:0;color:#4f5b6b;font-weight:600}
.conf{border-radius:8px;padding:10px 12px;background:#f4f6f9}.conf strong{display:block}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}dt{color:#4f5b6b}dd{margin:0;font-weight:600}
ul.comps{padding-left:20px;margin:8px 0 0}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{padding:0 16px 32px;text-align:center;font-size:.85rem;color:#4f5b6b}`);

function shell(f: Frame, title: string, body: Html, query = ""): string {
  const color = safeColor(f.brand.color);
  const logo = f.brand.logo && (/^https?:\/\//i.test(f.brand.logo) || isSitePath(f.brand.logo)) ? f.brand.logo : null;
  const langs =
    f.languages.length > 1
      ? html`<nav aria-label="${f.t("language")}"><ul class="langs">${f.languages.map(
          (l) => html`<li><a href="${basePath(l, f.token)}${query}" hreflang="${l}" lang="${l}" aria-current="${l === f.locale ? "true" : "false"}">${LANG_NAMES[l]}</a></li>`,
        )}</ul></nav>`
      : null;
  return `<!doctype html>${html`<html lang="${f.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${f.brand.name}</title><meta name="description" content="${f.t("intro")}"><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="same-origin">
<meta name="theme-color" content="${color}"><link rel="icon" href="data:,"><style>${CSS}</style></head>
<body style="--brand:${color};--on-brand:${textOn(color)};--accent:${accentOnWhite(color)}"><a class="skip" href="#main">${f.t("title")}</a>
<header class="top"><div class="wrap"><span class="brand">${logo ? html`<img src="${logo}" alt="" height="40">` : null}<span>${f.brand.name}</span></span>${langs}</div></header>
<main id="main" class="wrap">${body}</main>
<footer>${f.t("by", { name: f.brand.name })}</footer>${f.script ? html`<script src="/pricing-tool.js" defer></script>` : null}</body></html>`}`;
}

const q = (params: [string, string][]) => (params.length ? `?${new URLSearchParams(params).toString()}` : "");
const hidden = (params: [string, string][]) => params.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);

/** The progress bar: the five steps, the current one marked for assistive technology. */
function progress(f: Frame, step: PricingStep) {
  const at = PRICING_STEPS.indexOf(step as (typeof PRICING_STEPS)[number]);
  return html`<ol class="steps" aria-label="${f.t("progress")}">${PRICING_STEPS.map((s, i) =>
    i === at
      ? html`<li aria-current="step"><span class="sr-only">${f.t("stepOf", { n: i + 1, total: PRICING_STEPS.length })}: </span>${f.t(`steps.${s}`)}</li>`
      : html`<li class="${i < at ? "done" : ""}">${f.t(`steps.${s}`)}</li>`,
  )}</ol>`;
}

/** The error summary (focused on load) with links to each field, and each field's own message. */
function errorSummary(f: Frame, errors: FieldErrors, extra: Record<string, string | number> = {}) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return html`<div class="errors" role="alert" tabindex="-1" autofocus id="errors"><strong>${f.t("errors.summary", { count: entries.length })}</strong><ul>${entries.map(
    ([k, code]) => html`<li><a href="#f-${k}">${f.t(`errors.${code}`, extra)}</a></li>`,
  )}</ul></div>`;
}
const errText = (f: Frame, errors: FieldErrors, k: string, extra: Record<string, string | number> = {}) =>
  errors[k] ? html`<p class="err" id="f-${k}-err">${f.t(`errors.${errors[k]}`, extra)}</p>` : null;
const invalidAttrs = (errors: FieldErrors, k: string, hint?: string) => {
  const ids = [hint, errors[k] ? `f-${k}-err` : null].filter(Boolean).join(" ");
  return raw(`${errors[k] ? ' aria-invalid="true"' : ""}${ids ? ` aria-describedby="${ids}"` : ""}`);
};

/** A notice (rate limit, unavailable) shown above a step. */
export type Notice = { text: string } | null;
const noticeBlock = (n: Notice, focus: boolean) => (n ? html`<p class="notice" role="alert"${focus ? raw(' tabindex="-1" autofocus') : null}>${n.text}</p>` : null);

function heading(text: string, focus: boolean) {
  return focus ? html`<h1 tabindex="-1" autofocus>${text}</h1>` : html`<h1>${text}</h1>`;
}

export type StepView = { step: PricingStep; answers: Answers; errors: FieldErrors; notice?: Notice };

export function cityPage(f: Frame, v: StepView, cities: PricingCity[]): string {
  const { errors } = v;
  const hasErr = Boolean(Object.keys(errors).length || v.notice);
  const label = (c: PricingCity) => (c.state ? `${c.label} — ${c.state}` : c.label);
  const field =
    cities.length <= 8
      ? html`<fieldset id="f-city"${invalidAttrs(errors, "city")}><legend>${f.t("city.legend")}</legend>${errText(f, errors, "city")}<div class="choices one">${cities.map(
          (c, i) => html`<label class="choice"><input type="radio" name="city" value="${c.code}"${raw(v.answers.city === c.code ? " checked" : "")}${raw(i === 0 ? " required" : "")}> ${label(c)}</label>`,
        )}</div></fieldset>`
      : html`<div class="field"><label for="f-city">${f.t("city.legend")}</label>${errText(f, errors, "city")}<select id="f-city" name="city" required${invalidAttrs(errors, "city")}><option value="">—</option>${cities.map(
          (c) => html`<option value="${c.code}"${raw(v.answers.city === c.code ? " selected" : "")}>${label(c)}</option>`,
        )}</select></div>`;
  const body = html`${heading(f.t("title"), false)}<p class="by">${f.t("intro")}</p>${progress(f, "city")}${errorSummary(f, errors)}${noticeBlock(v.notice ?? null, hasErr)}
<div class="card">${
    cities.length
      ? html`<form method="get" action="${f.base}" novalidate><input type="hidden" name="step" value="neighborhood">${field}<div class="actions"><span></span><button class="btn" type="submit">${f.t("continue")}</button></div></form>`
      : html`<p>${f.t("city.none", { name: f.brand.name })}</p>`
  }</div>`;
  return shell(f, f.t("title"), body);
}

export function neighborhoodPage(f: Frame, v: StepView, city: PricingCity, suggestions: string[], didYouMean: string[] | null): string {
  const { errors, answers: a } = v;
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const keep = [...answerParams(a, "neighborhood"), ["neighborhood", a.neighborhood], ["nbok", "1"], ["step", "profile"]] as [string, string][];
  const pick = (name: string) => q([...answerParams(a, "neighborhood"), ["neighborhood", name], ["step", "profile"]]);
  const body = html`${heading(f.t("neighborhood.heading"), focusHeading && !didYouMean)}${progress(f, "neighborhood")}${errorSummary(f, errors)}${noticeBlock(v.notice ?? null, !focusHeading)}
${
    didYouMean
      ? html`<div class="notice" role="status"><p tabindex="-1" autofocus id="dym">${f.t("neighborhood.didYouMean", { typed: a.neighborhood, city: city.label })}</p><ul>${didYouMean.map(
          (n) => html`<li><a href="${f.base}${pick(n)}">${n}</a></li>`,
        )}<li><a href="${f.base}${q(keep)}">${f.t("neighborhood.keep", { typed: a.neighborhood })}</a></li></ul></div>`
      : null
  }
<div class="card"><form method="get" action="${f.base}" novalidate>${hidden(answerParams(a, "neighborhood"))}<input type="hidden" name="step" value="profile">
<div class="field"><label for="f-neighborhood">${f.t("neighborhood.label", { city: city.label })}</label><p class="hint" id="f-neighborhood-hint">${f.t("neighborhood.hint")}</p>${errText(f, errors, "neighborhood")}
<input id="f-neighborhood" name="neighborhood" type="text" list="nb-list" autocomplete="off" required maxlength="120" value="${a.neighborhood}"${invalidAttrs(errors, "neighborhood", "f-neighborhood-hint")}
 data-suggest="/api/sites/share/${f.token}/neighborhoods?city=${encodeURIComponent(city.code)}" data-none="${f.t("neighborhood.suggestions", { count: 0 })}" data-one="${f.t("neighborhood.suggestions", { count: 1 })}" data-other="${f.t("neighborhood.suggestions", { count: 7 }).replace("7", "#")}">
<datalist id="nb-list">${suggestions.map((s) => html`<option value="${s}"></option>`)}</datalist><p class="sr-only" id="nb-status" aria-live="polite"></p></div>
<div class="actions"><a href="${f.base}${q([...answerParams(a, "neighborhood"), ["step", "city"]])}">${f.t("back")}</a><button class="btn" type="submit">${f.t("continue")}</button></div></form></div>`;
  return shell(f, f.t("neighborhood.heading"), body);
}

export function typeLabel(f: Frame, types: { id: string; label: string }[], id: string, translated: Record<string, string>): string {
  const t = types.find((x) => x.id === id);
  if (f.locale !== "pt-BR" && translated[id]) return translated[id];
  return t?.label ?? id;
}

export function profilePage(f: Frame, v: StepView, types: { id: string; label: string }[], translated: Record<string, string>): string {
  const { errors, answers: a } = v;
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const count = (k: "bedrooms" | "bathrooms" | "parkingSpaces", label: string) =>
    html`<div class="field"><label for="f-${k}">${label} <span class="muted">(${f.t("optional")})</span></label>${errText(f, errors, k)}<input id="f-${k}" name="${k === "parkingSpaces" ? "parking" : k}" type="number" inputmode="numeric" min="0" max="50" step="1" value="${a[k]}"${invalidAttrs(errors, k)}></div>`;
  const body = html`${heading(f.t("profile.heading"), focusHeading)}${progress(f, "profile")}${errorSummary(f, errors)}${noticeBlock(v.notice ?? null, !focusHeading)}
<div class="card"><form method="get" action="${f.base}" novalidate>${hidden(answerParams(a, "profile"))}<input type="hidden" name="step" value="estimate">
<fieldset id="f-propertyType"${invalidAttrs(errors, "propertyType")}><legend>${f.t("profile.type")}</legend>${errText(f, errors, "propertyType")}<div class="choices">${types.map(
    (t, i) => html`<label class="choice"><input type="radio" name="type" value="${t.id}"${raw(a.propertyType === t.id ? " checked" : "")}${raw(i === 0 ? " required" : "")}> ${typeLabel(f, types, t.id, translated)}</label>`,
  )}</div></fieldset>
<div class="field"><label for="f-totalArea">${f.t("profile.area")}</label><p class="hint" id="f-totalArea-hint">${f.t("profile.areaHint")}</p>${errText(f, errors, "totalArea")}<input id="f-totalArea" name="area" type="text" inputmode="decimal" required maxlength="12" value="${a.totalArea}"${invalidAttrs(errors, "totalArea", "f-totalArea-hint")}></div>
<div class="row">${count("bedrooms", f.t("profile.bedrooms"))}${count("bathrooms", f.t("profile.bathrooms"))}${count("parkingSpaces", f.t("profile.parking"))}</div>
<div class="actions"><a href="${f.base}${q([...answerParams(a, "profile"), ["step", "neighborhood"]])}">${f.t("back")}</a><button class="btn" type="submit">${f.t("profile.submit")}</button></div></form></div>`;
  return shell(f, f.t("profile.heading"), body);
}

/** The visitor's answers with a link back to change each group. */
function answersList(f: Frame, a: Answers, cityLabel: string, type: string, shownNeighborhood: string) {
  const change = (step: PricingStep) => html` <a href="${f.base}${q([...answerParams(a, step), ["step", step]])}">${f.t("change")}<span class="sr-only"> (${f.t(`steps.${step}`)})</span></a>`;
  const rooms = [
    a.bedrooms ? `${a.bedrooms} ${f.t("profile.bedrooms").toLowerCase()}` : null,
    a.bathrooms ? `${a.bathrooms} ${f.t("profile.bathrooms").toLowerCase()}` : null,
    a.parkingSpaces ? `${a.parkingSpaces} ${f.t("profile.parking").toLowerCase()}` : null,
  ].filter(Boolean);
  return html`<section class="card" aria-labelledby="yours"><h2 id="yours">${f.t("estimate.yours")}</h2><dl>
<dt>${f.t("steps.city")}</dt><dd>${cityLabel}${change("city")}</dd>
<dt>${f.t("steps.neighborhood")}</dt><dd>${shownNeighborhood}${change("neighborhood")}</dd>
<dt>${f.t("steps.profile")}</dt><dd>${type}, ${a.totalArea.replace(".", f.locale === "en" ? "." : ",")} m²${rooms.length ? `, ${rooms.join(", ")}` : ""}${change("profile")}</dd></dl></section>`;
}

export function estimatePage(f: Frame, v: StepView, e: PriceEstimate, ctx: { cityLabel: string; type: string }): string {
  const a: Answers = { ...v.answers, estimate: e.estimate };
  const nb = e.explanation.neighborhood ?? a.neighborhood;
  const money = (n: number) => formatMoney(f.locale, n);
  const level = e.confidence.level;
  const levelKey = level === "high" ? "levelHigh" : level === "medium" ? "levelMedium" : "levelLow";
  const result = e.estimate
    ? html`<p class="label">${f.t("estimate.value")}</p><p class="value">${money(e.estimate.value)}</p><p>${f.t("estimate.range", { low: money(e.estimate.low), high: money(e.estimate.high) })}</p>
<p class="conf"><strong>${f.t(`estimate.${levelKey}`)}</strong>${f.t(`estimate.${level}`, { count: e.confidence.comparables })}</p>${e.pricePerSqm ? html`<p>${f.t("estimate.perSqm", { value: money(e.pricePerSqm) })}</p>` : null}`
    : html`<p>${f.t("estimate.none", { name: f.brand.name })}</p>`;
  const comps = e.explanation.comparables.length
    ? html`<details><summary>${f.t("estimate.comparables")} (${e.explanation.comparables.length})</summary><ul class="comps">${e.explanation.comparables.map(
        (c) =>
          html`<li>${[
            c.neighborhood,
            `${formatNumber(f.locale, c.totalArea)} m²`,
            c.bedrooms !== null ? f.t("estimate.bedrooms", { count: c.bedrooms }) : null,
            f.t("estimate.comparable", { price: money(c.pricePerSqm) }),
            f.t(`estimate.distance.${c.distanceBand}`),
          ]
            .filter(Boolean)
            .join(", ")}</li>`,
      )}</ul></details>`
    : null;
  const body = html`${heading(f.t("estimate.heading"), true)}${progress(f, "estimate")}
<section class="card result" aria-live="polite" aria-atomic="true">${result}${comps}<p class="muted">${f.t("estimate.disclaimer")}</p></section>
<section class="card" aria-labelledby="cta"><h2 id="cta">${f.t("estimate.ctaTitle")}</h2><p>${f.t("estimate.ctaText", { name: f.brand.name })}</p>
<form method="get" action="${f.base}">${hidden(answerParams({ ...a, neighborhood: a.neighborhood }, "contact"))}<input type="hidden" name="step" value="contact"><button class="btn" type="submit">${f.t("estimate.cta", { name: f.brand.name })}</button></form></section>
${answersList(f, a, ctx.cityLabel, ctx.type, nb)}<p><a href="${f.base}">${f.t("estimate.again")}</a></p>`;
  return shell(f, f.t("estimate.heading"), body);
}

export function contactPage(f: Frame, v: StepView, form: ContactForm, ctx: { cityLabel: string; type: string }): string {
  const { errors, answers: a } = v;
  const name = { name: f.brand.name };
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const input = (k: keyof ContactForm, type: string, label: string, attrs: string, hint?: string) =>
    html`<div class="field"><label for="f-${k}">${label}</label>${hint ? html`<p class="hint" id="f-${k}-hint">${hint}</p>` : null}${errText(f, errors, k, name)}<input id="f-${k}" name="${k}" type="${type}" value="${form[k]}"${raw(attrs)}${invalidAttrs(errors, k, hint ? `f-${k}-hint` : undefined)}></div>`;
  const body = html`${heading(f.t("contact.heading"), focusHeading)}${progress(f, "contact")}${errorSummary(f, errors, name)}${noticeBlock(v.notice ?? null, !focusHeading && !Object.keys(errors).length)}
<div class="card"><form method="post" action="${f.base}" novalidate>${hidden(answerParams(a, "contact"))}
${input("name", "text", f.t("contact.name"), ' autocomplete="name" required maxlength="120"')}
${input("email", "email", f.t("contact.email"), ' autocomplete="email" maxlength="200"', f.t("contact.either"))}
${input("phone", "tel", f.t("contact.phone"), ' autocomplete="tel" maxlength="40"')}
<fieldset id="f-intent"${invalidAttrs(errors, "intent")}><legend>${f.t("contact.intent")}</legend>${errText(f, errors, "intent")}<div class="choices">
<label class="choice wide"><input type="radio" name="intent" value="sell" required${raw(form.intent === "sell" ? " checked" : "")}> ${f.t("contact.sell")}</label>
<label class="choice wide"><input type="radio" name="intent" value="value"${raw(form.intent === "value" ? " checked" : "")}> ${f.t("contact.value")}</label></div></fieldset>
<fieldset><legend>${f.t("contact.address")}</legend><p class="hint">${f.t("contact.addressHint")}</p>
<div class="row2">${input("street", "text", f.t("contact.street"), ' autocomplete="address-line1" maxlength="200"')}${input("number", "text", f.t("contact.number"), ' maxlength="20"')}</div>
<div class="row2">${input("complement", "text", f.t("contact.complement"), ' autocomplete="address-line2" maxlength="100"')}${input("postalCode", "text", f.t("contact.postalCode"), ' autocomplete="postal-code" inputmode="numeric" maxlength="9"')}</div></fieldset>
<fieldset id="f-consent"${invalidAttrs(errors, "consent")}><legend>${f.t("contact.consentLegend")}</legend>${errText(f, errors, "consent", name)}<label class="choice"><input type="checkbox" name="consent" value="yes" required${raw(form.consent === "yes" ? " checked" : "")}> ${f.t("contact.consent", name)}</label></fieldset>
<div class="actions"><a href="${f.base}${q([...answerParams(a, "contact"), ["step", "estimate"]])}">${f.t("back")}</a><button class="btn" type="submit">${f.t("contact.send")}</button></div></form></div>
${answersList(f, a, ctx.cityLabel, ctx.type, a.neighborhood)}`;
  return shell(f, f.t("contact.heading"), body);
}

export function sentPage(f: Frame): string {
  const body = html`${heading(f.t("sent.heading"), true)}<div class="card" role="status"><p>${f.t("sent.text", { name: f.brand.name })}</p><p><a href="${f.base}">${f.t("sent.again")}</a></p></div>`;
  return shell(f, f.t("sent.heading"), body);
}

/** Not found, expired or protected: a page of its own with the answer's status. */
export function statusPage(f: Frame, kind: "not_found" | "expired" | "password"): string {
  const [title, text] =
    kind === "expired"
      ? [f.t("status.expiredTitle"), f.t("status.expiredText", { name: f.brand.name })]
      : kind === "password"
        ? [f.t("status.passwordTitle"), f.t("status.passwordText")]
        : [f.t("status.notFoundTitle"), f.t("status.notFoundText")];
  return shell({ ...f, languages: [f.locale] }, title, html`<h1>${title}</h1><div class="card"><p>${text}</p></div>`);
}
