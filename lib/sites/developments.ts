import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { buildings, listings, typologies, units, type BuildingRow, type SiteRow, type TypologyRow, type UnitRow } from "../../db/schema";
import { invalid, notFound } from "../errors/domain-errors";
import { UUID_PATTERN } from "../schemas/uuid";
import { loadTenant } from "../tenants/load-tenant";

/**
 * Developments on a public site (spec 2 §2.4): typologies that are active and shown on the site,
 * their units shown on the site (never the buyer or reservation data), the building record, and
 * the public listings of a typology. Everything is read within the site's tenant: another
 * tenant's ids are "not found".
 */

/** Endpoints without parameters still refuse unknown ones (a misspelled parameter is a 400). */
export const NoQuery = z.strictObject({});

export const TypologiesQuery = z.strictObject({ buildingId: z.string().max(100).optional().meta({ description: "The building's id (UUID); required." }) });
export const TypologyQuery = z.strictObject({
  includeUnits: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
});

export const PublicUnitSchema = z
  .object({
    id: z.uuid(),
    typologyId: z.uuid(),
    unitNumber: z.string(),
    blockTower: z.string().nullable(),
    floor: z.string().nullable(),
    status: z.enum(["available", "reserved", "sold", "unavailable"]),
    price: z.string().nullable(),
    propertyId: z.uuid().nullable(),
  })
  .meta({ id: "PublicUnit" });
export const UnitStatsSchema = z
  .object({ available: z.number(), reserved: z.number(), sold: z.number(), unavailable: z.number(), total: z.number() })
  .meta({ id: "UnitStats" });
export const PublicTypologySchema = z
  .object({
    id: z.uuid(),
    buildingId: z.uuid(),
    name: z.string(),
    code: z.string().nullable(),
    reference: z.string().nullable(),
    description: z.string().nullable(),
    bedrooms: z.number().nullable(),
    bathrooms: z.number().nullable(),
    suites: z.number().nullable(),
    totalArea: z.string().nullable(),
    privateArea: z.string().nullable(),
    parkingSpaces: z.number().nullable(),
    basePrice: z.string().nullable(),
    pricePerSqm: z.string().nullable(),
    features: z.record(z.string(), z.unknown()),
    files: z.array(z.unknown()),
    availableUnits: z.number(),
    totalUnits: z.number(),
    expectedDelivery: z.string().nullable(),
    constructionStatus: z.string().nullable(),
    order: z.number(),
    units: z.array(PublicUnitSchema).optional(),
    unitStats: UnitStatsSchema.optional(),
  })
  .meta({ id: "PublicTypology" });
export const PublicBuildingSchema = z.record(z.string(), z.unknown()).meta({
  id: "PublicBuilding",
  description:
    "Spec 2 §2.4: `id`, `name`, `description`, `developer`, `publisher`, `administrator`, `launchDate`, `openingDate`, `numberOfTowers`, `buildingPermit`, `portfolio`, `totalUnits`, `floors`, `yearBuilt`, `amenities`, `locationId`.",
});
export const TypologyListingSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    type: z.string(),
    price: z.string().nullable(),
    listingCode: z.string().nullable(),
    typologyId: z.uuid(),
    isPrimaryMarket: z.enum(["true", "false"]),
    visibility: z.string(),
    stage: z.string(),
  })
  .meta({ id: "TypologyListing" });
/** The answers of `siteTypologies`, `siteTypology`, `siteTypologyUnits`, `siteTypologyListings` and `siteBuilding`. */
export const SiteTypologiesSchema = z.object({ typologies: z.array(PublicTypologySchema) });
export const SiteTypologySchema = z.object({ typology: PublicTypologySchema });
export const SiteUnitsSchema = z.object({ units: z.array(PublicUnitSchema) });
export const SiteTypologyListingsSchema = z.object({ listings: z.array(TypologyListingSchema) });
export const SiteBuildingSchema = z.object({ building: PublicBuildingSchema });

const typologyNotFound = () => notFound("Typology not found");
const buildingNotFound = () => notFound("Building not found");
const dec = (v: string | null) => v;

type Stats = z.infer<typeof UnitStatsSchema>;

/** Unit counts per typology, over the units shown on the site. */
async function unitStats(db: DbOrTx, tenantId: string, typologyIds: string[]): Promise<Map<string, Stats>> {
  const out = new Map<string, Stats>();
  if (!typologyIds.length) return out;
  const res = await db.execute(sql`
    select typology_id, status, count(*)::int as n from units
    where tenant_id = ${tenantId}::uuid and show_on_site and typology_id in (${sql.join(
      typologyIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    group by typology_id, status`);
  for (const r of rowsOf<{ typology_id: string; status: keyof Stats; n: number }>(res)) {
    const s = out.get(r.typology_id) ?? { available: 0, reserved: 0, sold: 0, unavailable: 0, total: 0 };
    s[r.status] += Number(r.n);
    s.total += Number(r.n);
    out.set(r.typology_id, s);
  }
  return out;
}

function toPublicTypology(t: TypologyRow, s: Stats | undefined) {
  return {
    id: t.id,
    buildingId: t.buildingId,
    name: t.name,
    code: t.code,
    reference: t.reference,
    description: t.description,
    bedrooms: t.bedrooms,
    bathrooms: t.bathrooms,
    suites: t.suites,
    totalArea: dec(t.totalArea),
    privateArea: dec(t.privateArea),
    parkingSpaces: t.parkingSpaces,
    basePrice: dec(t.basePrice),
    pricePerSqm: dec(t.pricePerSqm),
    features: t.features,
    files: t.files,
    availableUnits: s?.available ?? 0,
    totalUnits: t.totalUnits ?? s?.total ?? 0,
    expectedDelivery: t.expectedDelivery,
    constructionStatus: t.constructionStatus,
    order: t.order,
  } satisfies z.infer<typeof PublicTypologySchema>;
}

const toPublicUnit = (u: UnitRow): z.infer<typeof PublicUnitSchema> => ({
  id: u.id,
  typologyId: u.typologyId,
  unitNumber: u.unitNumber,
  blockTower: u.blockTower,
  floor: u.floor,
  status: u.status,
  price: u.price,
  propertyId: u.propertyId,
});

/** Numbers inside unit numbers sort as numbers: 2 before 10, "A-2" before "A-10". */
const byUnitNumber = (a: UnitRow, b: UnitRow) => a.unitNumber.localeCompare(b.unitNumber, "pt-BR", { numeric: true }) || a.id.localeCompare(b.id);

async function visibleTypology(db: DbOrTx, site: SiteRow, typologyId: string): Promise<TypologyRow> {
  if (!UUID_PATTERN.test(typologyId)) throw typologyNotFound();
  const [t] = await db
    .select()
    .from(typologies)
    .where(
      and(eq(typologies.id, typologyId.toLowerCase()), eq(typologies.tenantId, site.tenantId), eq(typologies.active, true), eq(typologies.showOnSite, true)),
    )
    .limit(1);
  if (!t) throw typologyNotFound();
  return t;
}

/** `GET /typologies?buildingId=`: the building's typologies in their order. */
export async function siteTypologies(db: DbOrTx, site: SiteRow, q: z.infer<typeof TypologiesQuery>) {
  if (!q.buildingId) throw invalid("buildingId parameter is required", "invalid_parameter");
  // A malformed id is the caller's mistake, not an empty development.
  if (!UUID_PATTERN.test(q.buildingId)) throw invalid(`buildingId: '${q.buildingId.slice(0, 60)}' is not a UUID`, "invalid_parameter");
  const rows = await db
    .select()
    .from(typologies)
    .where(
      and(
        eq(typologies.tenantId, site.tenantId),
        eq(typologies.buildingId, q.buildingId.toLowerCase()),
        eq(typologies.active, true),
        eq(typologies.showOnSite, true),
      ),
    )
    .orderBy(asc(typologies.order), asc(typologies.name));
  const stats = await unitStats(
    db,
    site.tenantId,
    rows.map((t) => t.id),
  );
  return { typologies: rows.map((t) => toPublicTypology(t, stats.get(t.id))) } satisfies z.infer<typeof SiteTypologiesSchema>;
}

/** `GET /typologies/{id}`: with `includeUnits=true` the typology carries `units[]` and `unitStats`. */
export async function siteTypology(db: DbOrTx, site: SiteRow, typologyId: string, q: z.infer<typeof TypologyQuery>) {
  const t = await visibleTypology(db, site, typologyId);
  const stats = (await unitStats(db, site.tenantId, [t.id])).get(t.id);
  const typology = toPublicTypology(t, stats);
  if (q.includeUnits !== "true") return { typology } satisfies z.infer<typeof SiteTypologySchema>;
  const { units: list } = await unitsOf(db, site, t);
  return { typology: { ...typology, units: list, unitStats: stats ?? { available: 0, reserved: 0, sold: 0, unavailable: 0, total: 0 } } } satisfies z.infer<
    typeof SiteTypologySchema
  >;
}

async function unitsOf(db: DbOrTx, site: SiteRow, t: TypologyRow) {
  const rows = await db
    .select()
    .from(units)
    .where(and(eq(units.tenantId, site.tenantId), eq(units.typologyId, t.id), eq(units.showOnSite, true)));
  return { units: rows.sort(byUnitNumber).map(toPublicUnit) } satisfies z.infer<typeof SiteUnitsSchema>;
}

/** `GET /typologies/{id}/units`, ordered by unit number. */
export async function siteTypologyUnits(db: DbOrTx, site: SiteRow, typologyId: string) {
  return unitsOf(db, site, await visibleTypology(db, site, typologyId));
}

/**
 * `GET /typologies/{id}/listings`: the typology's public listings in the tenant's active stage
 * (§2.4 item; `isPrimaryMarket` is the text 'true'/'false' here, a private price is null).
 */
export async function siteTypologyListings(db: DbOrTx, site: SiteRow, typologyId: string) {
  const t = await visibleTypology(db, site, typologyId);
  const { settings } = await loadTenant(db, site.tenantId);
  const rows = await db
    .select()
    .from(listings)
    .where(
      and(
        eq(listings.tenantId, site.tenantId),
        eq(listings.typologyId, t.id),
        eq(listings.visibility, "public"),
        eq(listings.stage, settings.listingWorkflow.activeStageId),
      ),
    )
    .orderBy(asc(listings.createdAt), asc(listings.id));
  return {
    listings: rows.map((l) => ({
      id: l.id,
      title: l.title,
      description: l.description ?? "",
      type: l.type,
      price: l.priceVisibility === "public" ? l.price : null,
      // `typologyId` is the typology's (the query filters on it); `isPrimaryMarket` is stored as the spec's text.
      listingCode: l.listingCode,
      typologyId: t.id,
      isPrimaryMarket: l.isPrimaryMarket as "true" | "false",
      visibility: l.visibility,
      stage: l.stage,
    })),
  } satisfies z.infer<typeof SiteTypologyListingsSchema>;
}

/** `GET /buildings/{id}`: the building record of §2.4 (its street address stays internal). */
export async function siteBuilding(db: DbOrTx, site: SiteRow, buildingId: string) {
  if (!UUID_PATTERN.test(buildingId)) throw buildingNotFound();
  const [b] = await db
    .select()
    .from(buildings)
    .where(and(eq(buildings.id, buildingId.toLowerCase()), eq(buildings.tenantId, site.tenantId)))
    .limit(1);
  if (!b) throw buildingNotFound();
  return { building: toPublicBuilding(b) } satisfies z.infer<typeof SiteBuildingSchema>;
}

const toPublicBuilding = (b: BuildingRow) => ({
  id: b.id,
  name: b.name,
  description: b.description,
  developer: b.developer,
  publisher: b.publisher,
  administrator: b.administrator,
  launchDate: b.launchDate,
  openingDate: b.openingDate,
  numberOfTowers: b.numberOfTowers,
  buildingPermit: b.buildingPermit,
  portfolio: b.portfolio,
  totalUnits: b.totalUnits,
  floors: b.floors,
  yearBuilt: b.yearBuilt,
  amenities: b.amenities,
  locationId: b.locationId,
});
