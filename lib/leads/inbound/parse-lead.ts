import { toE164 } from "../../schemas/phone";
import { isValidCpf } from "../../contacts/cpf";
import { isSitePath } from "../../util/site-path";
import { storableJson, storableKey } from "../../util/storable-text";

/**
 * The inbound lead of spec 2 §2.9, read leniently: every field is optional, aliases are folded,
 * and a value of the wrong type or junk ("não informado" as a CPF, a phone of letters) is kept as
 * text in `invalid` and never blocks the lead: a portal's lead is worth more than its formatting.
 */
export type ParsedLead = {
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  cpf: string | null;
  listingRef: string | null;
  listingCode: string | null;
  propertyRef: string | null;
  businessType: "sale" | "rental" | "both";
  property: Record<string, number | string>;
  address: Record<string, string>;
  message: string | null;
  source: string | null;
  campaign: string | null;
  leadType: "visit" | "contact" | "seller_lead" | null;
  visit: { date: string; time: string; notes: string | null } | null;
  attribution: Record<string, string>;
  destination: "deal" | "listing" | null;
  originLeadId: string | null;
  externalId: string | null;
  /** Values we could not use, as sent (as text), so nothing the channel sent is lost. */
  invalid: Record<string, string>;
  /**
   * Set only on leads of the pricing tool (lib/share/pricing-lead.ts): the owner is the deal's
   * seller, and `captureProperty` also captures the property as a draft listing linked to the deal.
   */
  pricing?: { intent: "sell" | "value"; estimate: { value: number; low: number; high: number } | null; captureProperty: boolean };
  /**
   * Set only on leads of a site's own forms (lead form, web chat, saved search, booking) that sent
   * the browser's `visitorId`: the deal gets the visitor's favourites (lib/visitors/attach-interests.ts).
   */
  visitor?: { siteId: string; visitorId: string };
};

type Body = Record<string, unknown>;

const MAX_TEXT = 2000;

/** A usable string, or null; numbers are taken as their text (an id sent as a number). */
function text(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string") return null;
  const t = v.trim();
  return t ? t.slice(0, MAX_TEXT) : null;
}

const first = (b: Body, ...keys: string[]) => keys.map((k) => b[k]).find((v) => v !== undefined && v !== null && v !== "");

export function parseLead(body: Body, headerDestination: string | null): ParsedLead {
  const invalid: Record<string, string> = {};
  const keep = (field: string, raw: unknown) => {
    if (raw !== undefined && raw !== null && raw !== "") invalid[field] = (typeof raw === "string" ? raw : JSON.stringify(raw)).slice(0, MAX_TEXT);
  };

  const emailRaw = first(body, "contactEmail", "email", "ownerEmail");
  const email = text(emailRaw)?.toLowerCase() ?? null;
  const validEmail = email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
  if (emailRaw !== undefined && !validEmail) keep("contactEmail", emailRaw);

  const phoneRaw = first(body, "contactPhone", "phone", "ownerPhone");
  const phone = text(phoneRaw) ? toE164(text(phoneRaw)!) : null;
  if (phoneRaw !== undefined && !phone) keep("contactPhone", phoneRaw);

  const cpfRaw = first(body, "cpf", "ownerCpf");
  const cpfDigits = text(cpfRaw)?.replace(/\D/g, "") ?? "";
  const cpf = cpfDigits && isValidCpf(cpfDigits) ? cpfDigits : null;
  if (cpfRaw !== undefined && !cpf) keep("cpf", cpfRaw);

  const bt = text(body.businessType)?.toLowerCase();
  const businessType = bt === "rent" || bt === "rental" ? "rental" : bt === "both" ? "both" : "sale";
  if (body.businessType !== undefined && !["sale", "rent", "rental", "both"].includes(bt ?? "")) keep("businessType", body.businessType);

  const property: Record<string, number | string> = {};
  const pt = text(body.propertyType);
  if (pt) property.propertyType = pt;
  for (const k of ["bedrooms", "bathrooms", "suites", "parkingSpaces", "totalArea", "usableArea", "price", "condominiumFee"]) {
    const v = body[k];
    if (v === undefined || v === null || v === "") continue;
    const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.replace(",", ".")) : NaN;
    if (Number.isFinite(n) && n >= 0 && n < 1e12) property[k] = n;
    else keep(k, v);
  }

  const address: Record<string, string> = {};
  if (body.address && typeof body.address === "object" && !Array.isArray(body.address)) {
    for (const k of ["street", "number", "complement", "neighborhood", "city", "state", "postalCode", "fullAddress"]) {
      const v = text((body.address as Body)[k]);
      if (v) address[k] = v;
    }
  } else keep("address", body.address);

  const lt = text(body.leadType)?.toLowerCase();
  const leadType = lt === "property" ? "seller_lead" : lt === "visit" || lt === "contact" || lt === "seller_lead" ? lt : null;
  if (body.leadType !== undefined && !leadType) keep("leadType", body.leadType);

  const date = text(body.visitDate);
  const time = text(body.visitTime);
  const visitOk = date && time && /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time);
  const visit = visitOk ? { date: date!, time: time!, notes: text(body.visitNotes) } : null;
  if ((date || time) && !visitOk) keep("visit", `${date ?? ""} ${time ?? ""}`.trim());

  const attribution: Record<string, string> = {};
  for (const k of ["utmSource", "utmMedium", "utmCampaign", "utmTerm", "utmContent", "gclid"]) {
    const v = text(body[k]);
    if (v) attribution[k] = v.slice(0, 200);
  }
  const referrer = text(body.referrer);
  if (referrer) {
    if (isAbsoluteUrl(referrer)) attribution.referrer = referrer;
    else keep("referrer", referrer);
  }
  const landing = text(body.landingPage);
  if (landing) {
    const siteDomain = text(body.siteDomain);
    const resolved = isAbsoluteUrl(landing)
      ? landing
      : isSitePath(landing) && siteDomain && /^[a-z0-9.-]+(:\d+)?$/i.test(siteDomain)
        ? `https://${siteDomain.toLowerCase()}${landing}`
        : isSitePath(landing)
          ? landing
          : null;
    if (resolved) attribution.landingPage = resolved;
    else keep("landingPage", landing);
  }

  const dest = (headerDestination ?? text(body.destination))?.toLowerCase() ?? null;
  const destination = dest === "listing" || dest === "deal" ? dest : null;
  if (dest && !destination) keep("destination", dest);

  // Storable once cut to length (a cut can split an emoji's surrogate pair): junk never blocks a
  // lead. The dedupe keys stay distinct instead of cleaned (storableKey).
  const originLeadId = text(body.originLeadId)?.slice(0, 200);
  const externalId = text(body.externalId)?.slice(0, 200);
  return storableJson({
    contactName: text(first(body, "contactName", "name", "ownerName"))?.slice(0, 120) ?? null,
    contactEmail: validEmail,
    contactPhone: phone,
    cpf,
    listingRef: text(body.listingId),
    listingCode: text(first(body, "listingCode", "clientListingId")),
    propertyRef: text(body.propertyId),
    businessType,
    property,
    address,
    message: text(body.message),
    source: text(body.source)?.slice(0, 200) ?? null,
    campaign: text(body.campaign)?.slice(0, 200) ?? null,
    leadType,
    visit,
    attribution,
    destination,
    invalid,
    originLeadId: originLeadId ? storableKey(originLeadId) : null,
    externalId: externalId ? storableKey(externalId) : null,
  });
}

function isAbsoluteUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}
