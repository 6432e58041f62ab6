import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { properties, type InboundLeadRow } from "../../../db/schema";
import type { IntegrationActor } from "../../context/actor";
import type { Point } from "../../geo/geocode";
import { writeNewProperty } from "../../listings/properties";
import { listingsOfProperty } from "../../listings/property-in-tenant";
import { CreatePropertySchema } from "../../listings/schemas";
import { slugify } from "../../sites/locations";
import { loadTenant } from "../../tenants/load-tenant";
import type { ParsedLead } from "./parse-lead";

const digits = (v: string | undefined) => (v ?? "").replace(/\D/g, "");
const numberKey = (v: string | undefined) => (v ?? "").trim().toLowerCase().replace(/\s+/g, "");

/**
 * Owner capture (`destination: listing`): a draft property and a private listing in the tenant's
 * default (draft) stage from the lead's address and property data, with the owner's contact. A
 * property of the tenant with the same normalised street, number and postal code is the same
 * property: the lead is linked to it and nothing is created. Returns the listing the lead became.
 */
export async function captureListing(
  tx: Tx,
  row: InboundLeadRow,
  lead: ParsedLead,
  actor: IntegrationActor,
  point: Point | null,
  decision: string[],
): Promise<string | null> {
  const a = lead.address;
  const existing = await sameAddress(tx, row.tenantId, a);
  if (existing) {
    const [first] = await listingsOfProperty(tx, row.tenantId, existing);
    decision.push(`same address as property ${existing}: the lead is linked to it and nothing is created`);
    return first?.id ?? null;
  }
  const { settings } = await loadTenant(tx, row.tenantId);
  const wanted = typeof lead.property.propertyType === "string" ? lead.property.propertyType : null;
  const type = settings.propertyTypes.find((t) => t.id === wanted || slugify(t.label) === slugify(wanted ?? ""))?.id ?? settings.propertyTypes[0].id;
  if (wanted && type !== wanted) decision.push(`property type '${wanted}' is not one of the tenant's: captured as '${type}'`);
  const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 99 ? v : undefined);
  const money = (v: unknown) => (typeof v === "number" && v > 0 && v < 1e11 ? v.toFixed(2) : undefined);
  const raw = {
    property: {
      type,
      bedrooms: int(lead.property.bedrooms),
      bathrooms: int(lead.property.bathrooms),
      suites: int(lead.property.suites),
      parkingSpaces: int(lead.property.parkingSpaces),
      totalArea: money(lead.property.totalArea),
      usableArea: money(lead.property.usableArea),
      condominiumFee: money(lead.property.condominiumFee),
      owner: { name: lead.contactName ?? undefined, email: lead.contactEmail ?? undefined, phone: lead.contactPhone ?? undefined, cpf: lead.cpf ?? undefined },
      internalNotes: lead.message ?? undefined,
    },
    location: {
      street: a.street,
      number: a.number?.slice(0, 20),
      complement: a.complement?.slice(0, 100),
      neighborhood: a.neighborhood,
      city: a.city,
      state: a.state && /^[A-Za-z]{2}$/.test(a.state) ? a.state : undefined,
      postalCode: a.postalCode && /^\d{5}-?\d{3}$/.test(a.postalCode) ? a.postalCode : undefined,
      latitude: point?.latitude,
      longitude: point?.longitude,
    },
    listings: [
      {
        title: `Captação: ${[a.street, a.number].filter(Boolean).join(", ") || a.neighborhood || a.city || lead.contactName || "imóvel"}`.slice(0, 200),
        type: lead.businessType === "rental" ? "rental" : "sale",
        price: money(lead.property.price),
        visibility: "private",
        stage: settings.listingWorkflow.defaultStageId,
      },
    ],
  };
  const parsed = CreatePropertySchema.safeParse(JSON.parse(JSON.stringify(raw)));
  // Whatever does not fit the property's schema stays on the lead (its raw body); the capture still happens.
  const data = parsed.success
    ? parsed.data
    : CreatePropertySchema.parse({
        property: { type },
        location: {},
        listings: [{ title: raw.listings[0].title, type: raw.listings[0].type, visibility: "private", stage: raw.listings[0].stage }],
      });
  if (!parsed.success) decision.push(`some property data did not fit and was left on the lead: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  const created = await writeNewProperty(tx, actor, data);
  decision.push(
    `draft property ${created.property.id} and private listing ${created.listings[0].listingCode} captured${point ? " with coordinates from the geocoder" : ""}`,
  );
  return created.listings[0].id;
}

/** A property of the tenant at the same street, number and postal code (all three needed). */
async function sameAddress(tx: Tx, tenantId: string, a: ParsedLead["address"]): Promise<string | null> {
  const cep = digits(a.postalCode);
  const num = numberKey(a.number);
  const street = slugify(a.street ?? "");
  if (cep.length !== 8 || !num || !street) return null;
  const rows = await tx
    .select({ id: properties.id, street: properties.street, number: properties.number })
    .from(properties)
    .where(and(eq(properties.tenantId, tenantId), sql`regexp_replace(coalesce(${properties.postalCode}, ''), '[^0-9]', '', 'g') = ${cep}`))
    .limit(200);
  return rows.find((r) => numberKey(r.number ?? undefined) === num && slugify(r.street ?? "") === street)?.id ?? null;
}
