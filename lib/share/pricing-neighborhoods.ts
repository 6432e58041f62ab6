import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { requireCity } from "./pricing-link";
import type { ShareVisitorCtx } from "./share-visitor";
import type { CityPlace } from "./pricing-link";

export const NeighborhoodsQuery = z.strictObject({
  city: z.string().trim().min(1).max(120).meta({ description: "A city `code` of the tool (`pricingTool.cities[].code`)." }),
  q: z.string().trim().max(80).default("").meta({ description: "What the visitor typed; empty lists the city's main neighbourhoods." }),
});

export const NeighborhoodsSchema = z
  .object({ neighborhoods: z.array(z.object({ name: z.string().meta({ description: "Canonical name, as the tool expects it back." }) })).max(10) })
  .meta({ id: "PricingNeighborhoods" });

/** Below this trigram word similarity a name is not offered for a typo. */
const MIN_SIMILARITY = 0.3;
const LIMIT = 10;

/**
 * Canonical neighbourhood names of the tenant's listings in a city, matching what was typed
 * accent- and case-insensitively (unaccent) as a prefix of the name or of one of its words, or
 * within a typo (pg_trgm word similarity); prefixes first, then similarity, then the busiest.
 */
export async function suggestNeighborhoods(db: DbOrTx, tenantId: string, city: CityPlace, typed: string): Promise<string[]> {
  const q = typed.trim();
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      with n as (
        select d.location_neighborhood as name, count(*) as c, lower(unaccent(d.location_neighborhood)) as key
        from search_documents d
        where d.tenant_id = ${tenantId}::uuid and d.location_city = ${city.city}
          and coalesce(d.location_neighborhood, '') <> ''
        group by d.location_neighborhood
      ), t as (select lower(unaccent(${q}::text)) as k)
      select n.name from n, t
      where t.k = '' or strpos(n.key, t.k) = 1 or strpos(n.key, ' ' || t.k) > 0 or word_similarity(t.k, n.key) >= ${MIN_SIMILARITY}
      order by (t.k <> '' and strpos(n.key, t.k) = 1) desc, (t.k <> '' and strpos(n.key, ' ' || t.k) > 0) desc, word_similarity(t.k, n.key) desc, n.c desc, n.name
      limit ${LIMIT}`),
  );
  return rows.map((r) => r.name);
}

/** `GET /api/sites/share/{token}/neighborhoods?city&q`. */
export async function pricingNeighborhoods(ctx: ShareVisitorCtx, query: z.infer<typeof NeighborhoodsQuery>) {
  const city = await requireCity(ctx.db, ctx.tenantId, query.city);
  return { neighborhoods: (await suggestNeighborhoods(ctx.db, ctx.tenantId, city, query.q)).map((name) => ({ name })) };
}
