import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { buildings, typologies } from "../../db/schema";

/**
 * `GET /api/webhooks/channels/{pathToken}/buildings`: the tenant's developments for an external
 * system (feed token), built from allow-lists like the sites documents: the building record with
 * its neighborhood, city and state (never the street number), its active typologies shown on the
 * site with unit counts. Reservation data never leaves.
 */
export const BuildingsFeedSchema = z.object({ buildings: z.array(z.record(z.string(), z.unknown())) });

export async function buildingsFeed(db: DbOrTx, tenantId: string): Promise<z.infer<typeof BuildingsFeedSchema>> {
  const rows = await db.select().from(buildings).where(eq(buildings.tenantId, tenantId)).orderBy(asc(buildings.name), asc(buildings.id));
  const ids = rows.map((b) => b.id);
  const types = ids.length
    ? await db
        .select()
        .from(typologies)
        .where(and(eq(typologies.tenantId, tenantId), inArray(typologies.buildingId, ids), eq(typologies.active, true), eq(typologies.showOnSite, true)))
        .orderBy(asc(typologies.order), asc(typologies.name))
    : [];
  const stats = new Map<string, { available: number; total: number }>();
  if (types.length) {
    const res = await db.execute(sql`
      select typology_id, count(*) filter (where status = 'available')::int as available, count(*)::int as total
      from units where tenant_id = ${tenantId}::uuid and show_on_site group by typology_id`);
    for (const r of rowsOf<{ typology_id: string; available: number; total: number }>(res))
      stats.set(r.typology_id, { available: Number(r.available), total: Number(r.total) });
  }
  return {
    buildings: rows.map((b) => ({
      id: b.id,
      externalId: b.externalId,
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
      location: { neighborhood: b.neighborhood, city: b.city, state: b.state },
      typologies: types
        .filter((t) => t.buildingId === b.id)
        .map((t) => ({
          id: t.id,
          externalId: t.externalId,
          name: t.name,
          code: t.code,
          bedrooms: t.bedrooms,
          bathrooms: t.bathrooms,
          suites: t.suites,
          totalArea: t.totalArea,
          privateArea: t.privateArea,
          parkingSpaces: t.parkingSpaces,
          basePrice: t.basePrice,
          pricePerSqm: t.pricePerSqm,
          availableUnits: stats.get(t.id)?.available ?? 0,
          totalUnits: t.totalUnits ?? stats.get(t.id)?.total ?? 0,
          expectedDelivery: t.expectedDelivery,
          constructionStatus: t.constructionStatus,
        })),
    })),
  };
}
