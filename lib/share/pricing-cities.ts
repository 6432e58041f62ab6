import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { slugify } from "../sites/locations";

export type PricingCity = { code: string; label: string; state: string | null };

/** `São Paulo`, `SP` -> `sao-paulo-sp`: stable, URL-safe, and unique per city and state. */
export const cityCode = (city: string, state: string | null) => slugify(state ? `${city} ${state}` : city);

/**
 * The cities the pricing tool can value: where the tenant has sale listings with a price and an
 * area (the comparables), most listings first.
 */
export async function pricingCities(db: DbOrTx, tenantId: string): Promise<PricingCity[]> {
  const rows = rowsOf<{ city: string; state: string | null; n: number }>(
    await db.execute(sql`
      select p.city, p.state, count(*)::int as n
      from listings l join properties p on p.id = l.property_id
      where l.tenant_id = ${tenantId} and l.type = 'sale' and l.price > 0 and p.total_area > 0 and p.city is not null
      group by p.city, p.state order by n desc, p.city`),
  );
  const seen = new Set<string>();
  const out: PricingCity[] = [];
  for (const r of rows) {
    const code = cityCode(r.city, r.state);
    if (seen.has(code)) continue;
    seen.add(code);
    out.push({ code, label: r.city, state: r.state });
  }
  return out;
}

const CITY_TTL_MS = 60_000;
const cityCache = new Map<string, { at: number; cities: PricingCity[] }>();

/**
 * The city a pricing helper names by its `code`, from a per-process list kept a minute (the
 * helpers are called on every keystroke); a code missing from a cached list re-reads it once,
 * so a city that just got its first listing is found at once.
 */
export async function cityByCode(db: DbOrTx, tenantId: string, code: string): Promise<PricingCity | null> {
  const hit = cityCache.get(tenantId);
  const fresh = hit && Date.now() - hit.at < CITY_TTL_MS ? hit.cities : null;
  const found = fresh?.find((c) => c.code === code);
  if (found) return found;
  const cities = await pricingCities(db, tenantId);
  cityCache.set(tenantId, { at: Date.now(), cities });
  if (cityCache.size > 5_000) cityCache.delete(cityCache.keys().next().value!);
  return cities.find((c) => c.code === code) ?? null;
}
