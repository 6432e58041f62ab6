import { ZodError } from "zod";
import { getDb, type Db } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-errors";
import { clientAddress } from "@/lib/http/client-address";
import { isConnectionError } from "@/lib/http/db-errors";
import { consumeRateLimit, type RateGroup } from "@/lib/http/rate-limit";
import { traceOf } from "@/lib/http/share-route";
import { logger } from "@/lib/log/logger";
import { valueProperty } from "@/lib/share/price-estimate";
import { capturePricingLead } from "@/lib/share/pricing-lead";
import { suggestNeighborhoods } from "@/lib/share/pricing-neighborhoods";
import {
  checkAnswers,
  checkContact,
  leadBody,
  openPricingPage,
  readAnswers,
  stepToShow,
  type Answers,
  type ContactForm,
  type FieldErrors,
  type PricingPage,
  type PricingPageOpen,
} from "@/lib/share/pricing-flow";
import { serviceHostSet } from "@/lib/sites/render/host-routing";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";
import { loose, translator } from "@/lib/i18n/translator";
import { typeLabel } from "@/lib/listings/view/type-label";
import type { Notice } from "@/app/pricing-render/_pricing/form-parts";
import { cityPage, neighborhoodPage } from "@/app/pricing-render/_pricing/place-steps";
import { basePath, type Frame } from "@/app/pricing-render/_pricing/pricing-document";
import { profilePage } from "@/app/pricing-render/_pricing/profile-step";
import { contactPage, estimatePage, sentPage, statusPage } from "@/app/pricing-render/_pricing/result-steps";
import { storableText } from "@/lib/util/storable-text";
import { unavailablePage } from "@/app/_ui/unavailable-page";

/**
 * The pricing tool `/c/{token}` (and `/en/c/…`, `/es/c/…`; the proxy rewrites them here on every
 * host). Plain HTML forms between steps, so it works without JavaScript: GET carries the answers
 * from step to step, the contact step POSTs the lead. Rendered from escaped templates in a route
 * handler rather than a page, because the tool answers statuses a page cannot (410 for an expired
 * link, 400 with the form's errors, 429 when rate limited); see docs/decisions.md.
 */

type Ctx = { params: Promise<{ locale: string; token: string }> };

const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);
function frameFor(locale: Locale, token: string, brand: Frame["brand"], languages: Locale[]): Frame {
  const tr = translator(locale);
  const t = (key: string, values?: Record<string, string | number>) => loose(tr)(`pricing.${key}`, values);
  return { t, tr, locale, languages, token, base: basePath(locale, token), brand };
}

/** The property types of the tenant, each named in the visitor's language. */
const typeOptions = (f: Frame, types: { id: string; label: string }[]) => types.map((p) => ({ id: p.id, label: typeLabel(p.id, f.locale, f.tr, types) }));

async function page(body: string | Promise<string>, status = 200, extra: Record<string, string> = {}): Promise<Response> {
  return new Response(await body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex, nofollow",
      // The token is in the address: it never leaves in a Referer to another site.
      "referrer-policy": "same-origin",
      "x-content-type-options": "nosniff",
      "content-security-policy":
        "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      ...extra,
    },
  });
}

/** The link's closed states as pages: 404 unknown (or another kind, host or locale), 410 expired, 401 protected. */
function statusAnswer(state: Exclude<PricingPageOpen, { state: "open" }>, locale: Locale, token: string): Promise<Response> {
  const neutral = { name: "", logo: null, color: "#1f6feb" };
  if (state.state === "expired") {
    // Expired: the tenant's branding only, nothing of the tool.
    const b = state.branding;
    const f = frameFor(locale, token, b ? { name: b.name, logo: b.logo, color: b.primaryColor } : neutral, [locale]);
    return page(statusPage(f, "expired"), 410);
  }
  const f = frameFor(locale, token, neutral, [locale]);
  if (state.state === "password_required") return page(statusPage(f, "password"), 401);
  return page(statusPage(f, "not_found"), 404);
}

type Opened = { db: Db; tool: PricingPage; frame: Frame; locale: Locale; token: string };

async function open(req: Request, ctx: Ctx): Promise<Opened | Response> {
  const { locale: rawLocale, token } = await ctx.params;
  const db = await getDb();
  const locale: Locale = isLocale(rawLocale) ? rawLocale : DEFAULT_LOCALE;
  if (!isLocale(rawLocale)) return statusAnswer({ state: "not_found" }, locale, token);
  try {
    const tool = await openPricingPage(db, token, { host: req.headers.get("host"), locale, serviceHosts });
    if (tool.state !== "open") return statusAnswer(tool, locale, token);
    const b = tool.tenant.settings.branding;
    const frame = frameFor(locale, token, { name: b.name, logo: b.logo, color: b.primaryColor }, tool.languages);
    return { db, tool, frame, locale, token };
  } catch (err) {
    if (isConnectionError(err)) return unavailablePage(locale);
    throw err;
  }
}

/** One request of a rate-limited group (the same buckets as the pricing API endpoints). */
async function limited(db: Db, req: Request, group: RateGroup, f: Frame): Promise<{ notice: Notice; retry: number } | null> {
  const d = await consumeRateLimit(db, group, clientAddress(req.headers));
  if (!d || d.allowed) return null;
  return { notice: { text: f.t("errors.rateLimited", { seconds: d.resetSeconds }) }, retry: d.resetSeconds };
}

const canonical = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

export async function GET(req: Request, ctx: Ctx): Promise<Response> {
  const o = await open(req, ctx);
  if (o instanceof Response) return o;
  try {
    return await render(req, o);
  } catch (err) {
    return failure(o, err);
  }
}

/** Nothing a visitor sends may end in a 500: a domain refusal is shown on the tool, anything else is a 503 page. */
function failure(o: Opened, err: unknown): Promise<Response> {
  const f = o.frame;
  const empty = readAnswers(new URLSearchParams());
  if (err instanceof ZodError || (err instanceof DomainError && err.kind === "invalid")) {
    return page(
      cityPage(
        f,
        { step: "city", answers: empty, errors: {}, notice: { text: f.t("errors.notSent", { reason: (err as Error).message.slice(0, 200) }) } },
        o.tool.cities,
      ),
      400,
    );
  }
  logger().error({ err, tenantId: o.tool.tenant.id }, "pricing tool page failed");
  return page(cityPage(f, { step: "city", answers: empty, errors: {}, notice: { text: f.t("errors.unavailable") } }, o.tool.cities), 503, {
    "retry-after": "30",
  });
}

async function render(req: Request, o: Opened): Promise<Response> {
  const { db, tool, frame: f } = o;
  const url = new URL(req.url);
  url.search = storableParams(url.searchParams).toString();
  const a = readAnswers(url.searchParams);
  const s = tool.tenant.settings;
  const checked = checkAnswers(a, { cities: tool.cities, propertyTypes: s.propertyTypes });
  const shown = stepToShow(url.searchParams.get("step"), checked);
  const city = tool.cities.find((c) => c.code === a.city);
  const place = city ? { code: city.code, city: city.label, state: city.state } : null;
  const type = typeLabel(a.propertyType, f.locale, f.tr, s.propertyTypes);
  const cityLabel = city ? (city.state ? `${city.label} — ${city.state}` : city.label) : "";

  if (shown.step === "sent") return page(sentPage({ ...f, languages: [f.locale] }));
  if (shown.step === "city") return page(cityPage(f, { ...shown, answers: a }, tool.cities), Object.keys(shown.errors).length ? 400 : 200);

  // The neighbourhood just typed: its canonical spelling, or "did you mean" when the tool does not know it.
  if (shown.step === "profile" && url.searchParams.get("step") === "profile" && !a.nbok && place) {
    const lim = await limited(db, req, "pricing_autocomplete", f);
    if (lim)
      return page(neighborhoodPage({ ...f, script: true }, { ...shown, step: "neighborhood", answers: a, notice: lim.notice }, city!, [], null), 429, {
        "retry-after": String(lim.retry),
      });
    const names = await suggestNeighborhoods(db, tool.tenant.id, place, a.neighborhood);
    const exact = names.find((n) => canonical(n) === canonical(a.neighborhood));
    if (exact) a.neighborhood = exact;
    else if (names.length)
      return page(neighborhoodPage({ ...f, script: true }, { step: "neighborhood", answers: a, errors: {} }, city!, names, names.slice(0, 5)));
  }
  if (shown.step === "neighborhood") {
    const names = place ? await suggestNeighborhoods(db, tool.tenant.id, place, "") : [];
    return page(neighborhoodPage({ ...f, script: true }, { ...shown, answers: a }, city!, names, null), Object.keys(shown.errors).length ? 400 : 200);
  }
  if (shown.step === "profile")
    return page(profilePage(f, { ...shown, answers: a }, typeOptions(f, s.propertyTypes)), Object.keys(shown.errors).length ? 400 : 200);
  if (shown.step === "estimate") {
    const lim = await limited(db, req, "pricing_estimate", f);
    if (lim)
      return page(profilePage(f, { step: "profile", answers: a, errors: {}, notice: lim.notice }, typeOptions(f, s.propertyTypes)), 429, {
        "retry-after": String(lim.retry),
      });
    const e = await valueProperty(db, tool.tenant, checked.value!);
    return page(estimatePage(f, { ...shown, answers: a }, e, { cityLabel, type }));
  }
  return page(contactPage(f, { ...shown, answers: a }, emptyContact(), { cityLabel, type }));
}

const CONTACT_FIELDS = ["name", "email", "phone", "intent", "consent", "street", "number", "complement", "postalCode"] as const;
const emptyContact = (): ContactForm => Object.fromEntries(CONTACT_FIELDS.map((k) => [k, ""])) as ContactForm;

/** The contact step's form: the lead through the same verb as `POST /api/sites/share/{token}/pricing-lead`, then 303 to the thank-you step. */
export async function POST(req: Request, ctx: Ctx): Promise<Response> {
  const o = await open(req, ctx);
  if (o instanceof Response) return o;
  const { db, tool, frame: f } = o;
  try {
    let data: URLSearchParams;
    try {
      data = storableParams(new URLSearchParams((await req.text()).slice(0, 20_000)));
    } catch {
      data = new URLSearchParams();
    }
    const a = readAnswers(data);
    const checked = checkAnswers(a, { cities: tool.cities, propertyTypes: tool.tenant.settings.propertyTypes });
    const form = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, (data.get(k) ?? "").trim().slice(0, 300)])) as ContactForm;
    const city = tool.cities.find((c) => c.code === a.city);
    const ctxLabels = {
      cityLabel: city ? (city.state ? `${city.label} — ${city.state}` : city.label) : "",
      type: typeLabel(a.propertyType, f.locale, f.tr, tool.tenant.settings.propertyTypes),
    };
    // Answers lost or tampered with: back to the first step that needs them.
    if (!checked.value) {
      const shown = stepToShow("contact", checked);
      const keep = [...data].filter(([k]) => !(CONTACT_FIELDS as readonly string[]).includes(k) && k !== "step");
      return new Response(null, {
        status: 303,
        headers: { location: `${f.base}?${new URLSearchParams([...keep, ["step", shown.step]]).toString()}`, "cache-control": "no-store" },
      });
    }
    const errors: FieldErrors = checkContact(form);
    if (Object.keys(errors).length) return await page(contactPage(f, { step: "contact", answers: a, errors }, form, ctxLabels), 400);
    const lim = await limited(db, req, "pricing_lead", f);
    if (lim)
      return await page(contactPage(f, { step: "contact", answers: a, errors: {}, notice: lim.notice }, form, ctxLabels), 429, {
        "retry-after": String(lim.retry),
      });
    try {
      await capturePricingLead(tool.ctx, { body: leadBody(checked.value, form, a.estimate as Answers["estimate"]), trace: traceOf(req) });
    } catch (err) {
      if (err instanceof ZodError || (err instanceof DomainError && err.kind === "invalid")) {
        const reason = err instanceof ZodError ? err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : err.message;
        return await page(
          contactPage(
            f,
            { step: "contact", answers: a, errors: {}, notice: { text: f.t("errors.notSent", { reason: reason.slice(0, 300) }) } },
            form,
            ctxLabels,
          ),
          400,
        );
      }
      throw err;
    }
    return new Response(null, { status: 303, headers: { location: `${f.base}?step=sent`, "cache-control": "no-store" } });
  } catch (err) {
    return failure(o, err);
  }
}

/** A visitor's answers as PostgreSQL can store and compare them: a NUL or lone surrogate (only a script sends them) is cleaned. */
function storableParams(p: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...p].map(([k, v]) => [storableText(k), storableText(v)]));
}
