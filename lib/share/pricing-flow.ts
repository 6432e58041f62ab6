import { z } from "zod";
import type { Db } from "../../db/client";
import { eq } from "drizzle-orm";
import { shareLinks, type ShareLinkRow } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import { toE164 } from "../schemas/phone";
import type { SiteLocale } from "../sites/render/host-routing";
import { shareHostKind } from "./share-host";
import { loadTenant } from "../tenants/load-tenant";
import { pricingCities, type PricingCity } from "./pricing-cities";
import { DomainError } from "../errors/domain-errors";
import { pricingVisitor, type ShareVisitorCtx } from "./share-visitor";

/**
 * The pricing tool page `/c/{token}` (issue #16) as plain form steps: which step a request asks
 * for, what its answers so far are, and which of them are wrong (error codes the page words in
 * the visitor's language). Pure except for `openPricingPage`.
 */

export const PRICING_STEPS = ["city", "neighborhood", "profile", "estimate", "contact"] as const;
export type PricingStep = (typeof PRICING_STEPS)[number] | "sent";

export type ErrorCode =
  | "city_required"
  | "city_unknown"
  | "neighborhood_required"
  | "too_long"
  | "type_required"
  | "area_required"
  | "area_range"
  | "count_range"
  | "name_required"
  | "email_invalid"
  | "phone_invalid"
  | "contact_required"
  | "intent_required"
  | "consent_required"
  | "postal_code_invalid";
export type FieldErrors = Partial<Record<string, ErrorCode>>;

/** The answers as the URL carries them between steps (strings, as typed). */
export type Answers = {
  city: string;
  neighborhood: string;
  propertyType: string;
  totalArea: string;
  bedrooms: string;
  bathrooms: string;
  parkingSpaces: string;
  /** The visitor kept a neighbourhood name the tool does not know. */
  nbok: boolean;
  estimate: { value: number; low: number; high: number } | null;
};

/** URL parameter of each answer. */
export const PARAM = {
  city: "city",
  neighborhood: "neighborhood",
  propertyType: "type",
  totalArea: "area",
  bedrooms: "bedrooms",
  bathrooms: "bathrooms",
  parkingSpaces: "parking",
} as const satisfies Record<Exclude<keyof Answers, "nbok" | "estimate">, string>;

const one = (q: URLSearchParams | Map<string, string>, k: string) => (q.get(k) ?? "").trim().slice(0, 200);

export function readAnswers(q: URLSearchParams): Answers {
  const n = (k: string) => {
    const v = Number(one(q, k));
    return Number.isFinite(v) && v > 0 && v <= 1e11 ? v : null;
  };
  const [value, low, high] = [n("ev"), n("el"), n("eh")];
  return {
    city: one(q, PARAM.city),
    neighborhood: one(q, PARAM.neighborhood),
    propertyType: one(q, PARAM.propertyType),
    totalArea: one(q, PARAM.totalArea),
    bedrooms: one(q, PARAM.bedrooms),
    bathrooms: one(q, PARAM.bathrooms),
    parkingSpaces: one(q, PARAM.parkingSpaces),
    nbok: one(q, "nbok") === "1",
    estimate: value && low && high && low <= value && value <= high ? { value, low, high } : null,
  };
}

/** The answers as URL parameters (empty ones left out), for links and hidden fields. */
export function answerParams(a: Answers, upTo: PricingStep): [string, string][] {
  const out: [string, string][] = [];
  const add = (k: string, v: string) => v && out.push([k, v]);
  const at = PRICING_STEPS.indexOf(upTo as (typeof PRICING_STEPS)[number]);
  const past = (s: (typeof PRICING_STEPS)[number]) => upTo === "sent" || at > PRICING_STEPS.indexOf(s);
  if (past("city")) add(PARAM.city, a.city);
  if (past("neighborhood")) {
    add(PARAM.neighborhood, a.neighborhood);
    if (a.nbok) add("nbok", "1");
  }
  if (past("profile")) {
    add(PARAM.propertyType, a.propertyType);
    add(PARAM.totalArea, a.totalArea);
    add(PARAM.bedrooms, a.bedrooms);
    add(PARAM.bathrooms, a.bathrooms);
    add(PARAM.parkingSpaces, a.parkingSpaces);
  }
  if (past("estimate") && a.estimate) {
    add("ev", String(a.estimate.value));
    add("el", String(a.estimate.low));
    add("eh", String(a.estimate.high));
  }
  return out;
}

/** `"80"`, `"80,5"` -> number; blank -> null; anything else -> NaN. */
function decimal(v: string): number | null {
  if (!v) return null;
  const n = Number(v.replace(",", "."));
  return Number.isFinite(n) ? n : NaN;
}

export type Profile = {
  city: string;
  neighborhood: string;
  propertyType: string;
  totalArea: number;
  bedrooms: number | null;
  bathrooms: number | null;
  parkingSpaces: number | null;
};

/** The errors of each answered step, in step order. */
export function checkAnswers(a: Answers, ctx: { cities: PricingCity[]; propertyTypes: { id: string }[] }) {
  const city: FieldErrors = {};
  if (!a.city) city.city = "city_required";
  else if (!ctx.cities.some((c) => c.code === a.city)) city.city = "city_unknown";
  const neighborhood: FieldErrors = {};
  if (!a.neighborhood) neighborhood.neighborhood = "neighborhood_required";
  else if (a.neighborhood.length > 120) neighborhood.neighborhood = "too_long";
  const profile: FieldErrors = {};
  if (!ctx.propertyTypes.some((t) => t.id === a.propertyType)) profile.propertyType = "type_required";
  const area = decimal(a.totalArea);
  if (area === null) profile.totalArea = "area_required";
  else if (!(area >= 1 && area <= 1_000_000)) profile.totalArea = "area_range";
  const counts: Record<string, number | null> = {};
  for (const k of ["bedrooms", "bathrooms", "parkingSpaces"] as const) {
    const v = decimal(a[k]);
    if (v !== null && !(Number.isInteger(v) && v >= 0 && v <= 50)) profile[k] = "count_range";
    counts[k] = v;
  }
  const ok = !Object.keys(city).length && !Object.keys(neighborhood).length && !Object.keys(profile).length;
  const value: Profile | null = ok
    ? {
        city: a.city,
        neighborhood: a.neighborhood,
        propertyType: a.propertyType,
        totalArea: area!,
        bedrooms: counts.bedrooms,
        bathrooms: counts.bathrooms,
        parkingSpaces: counts.parkingSpaces,
      }
    : null;
  return { city, neighborhood, profile, value };
}

/**
 * The step to show: the one asked for, unless an earlier one is unanswered or wrong (then that
 * one, with its errors when the visitor went past it; the very first visit shows none).
 */
export function stepToShow(requested: string | null, checked: ReturnType<typeof checkAnswers>): { step: PricingStep; errors: FieldErrors } {
  if (requested === "sent") return { step: "sent", errors: {} };
  const want = (PRICING_STEPS as readonly string[]).includes(requested ?? "") ? (requested as (typeof PRICING_STEPS)[number]) : "city";
  const at = PRICING_STEPS.indexOf(want);
  for (const s of ["city", "neighborhood", "profile"] as const) {
    const errs = checked[s];
    if (at > PRICING_STEPS.indexOf(s) && Object.keys(errs).length) return { step: s, errors: errs };
  }
  return { step: want, errors: {} };
}

/** The contact step's form: field errors, or the pricing-lead body (spec 2 §4) to send. */
export type ContactForm = Record<"name" | "email" | "phone" | "intent" | "consent" | "street" | "number" | "complement" | "postalCode", string>;

const Email = z.email().max(200);

export function checkContact(f: ContactForm): FieldErrors {
  const e: FieldErrors = {};
  if (!f.name) e.name = "name_required";
  else if (f.name.length > 120) e.name = "too_long";
  if (f.email && !Email.safeParse(f.email).success) e.email = "email_invalid";
  if (f.phone && !toE164(f.phone)) e.phone = "phone_invalid";
  if (!f.email && !f.phone) e.email = "contact_required";
  if (f.intent !== "sell" && f.intent !== "value") e.intent = "intent_required";
  if (f.consent !== "yes") e.consent = "consent_required";
  if (f.postalCode && !/^\d{5}-?\d{3}$/.test(f.postalCode)) e.postalCode = "postal_code_invalid";
  for (const [k, max] of [
    ["street", 200],
    ["number", 20],
    ["complement", 100],
  ] as const)
    if (f[k].length > max) e[k] = "too_long";
  return e;
}

export function leadBody(p: Profile, f: ContactForm, estimate: Answers["estimate"]) {
  const opt = (v: string) => v || null;
  return {
    contact: { name: f.name, email: opt(f.email), phone: opt(f.phone) },
    property: { ...p, street: opt(f.street), number: opt(f.number), complement: opt(f.complement), postalCode: opt(f.postalCode) },
    estimate,
    intent: f.intent,
    consent: true,
  };
}

export type PricingPage = { ctx: ShareVisitorCtx; link: ShareLinkRow; tenant: TenantRow; cities: PricingCity[]; languages: SiteLocale[] };

/** The tool behind a token as its visitor finds it; closed states carry nothing of the tool. */
export type PricingPageOpen =
  | ({ state: "open" } & PricingPage)
  /** The tenant's branding, if the link can still be traced to its tenant. */
  | { state: "expired"; branding: { name: string; logo: string | null; primaryColor: string } | null }
  | { state: "password_required" }
  | { state: "not_found" };

/**
 * The pricing tool behind a token, opened like the helpers (unknown, inactive or another kind:
 * not found; expired), and only on a host of its tenant: the service's own, the share domain
 * under the tenant's slug, or one of the tenant's active sites. A locale the tenant has not
 * enabled is not found, as on its sites.
 */
export async function openPricingPage(
  db: Db,
  token: string,
  input: { host: string | null; locale: SiteLocale; serviceHosts: ReadonlySet<string> },
): Promise<PricingPageOpen> {
  let ctx: ShareVisitorCtx;
  try {
    ctx = await pricingVisitor(db, token);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.kind === "unauthorized") return { state: "password_required" };
    if (err.kind !== "gone") return { state: "not_found" };
    const [link] = await db.select({ tenantId: shareLinks.tenantId }).from(shareLinks).where(eq(shareLinks.token, token)).limit(1);
    const b = link ? (await loadTenant(db, link.tenantId)).settings.branding : null;
    return { state: "expired", branding: b ? { name: b.name, logo: b.logo, primaryColor: b.primaryColor } : null };
  }
  const { link, tenant } = ctx.actor;
  if (!(await hostServes(db, tenant, input.host, input.serviceHosts))) return { state: "not_found" };
  const languages = ["pt-BR", ...tenant.settings.listingLanguages.filter((l) => l !== "pt-BR")] as SiteLocale[];
  if (!languages.includes(input.locale)) return { state: "not_found" };
  return { state: "open", ctx, link, tenant, cities: await pricingCities(db, tenant.id), languages };
}

async function hostServes(db: Db, tenant: TenantRow, rawHost: string | null, serviceHosts: ReadonlySet<string>): Promise<boolean> {
  // The same rule as the share pages /p/{token}.
  return (await shareHostKind(db, rawHost, tenant, serviceHosts)) !== null;
}
