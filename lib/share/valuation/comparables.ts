import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { derivedTokensSql, normalizeTokens } from "../../search/filter";
import { TYPE_GROUPS, typeGroup, type Candidate } from "./estimate";

/** How many candidates the database hands over for the exact ranking (by a cheaper score). */
const PREFETCH = 150;

const textArray = (v: string[]) =>
  v.length
    ? sql`ARRAY[${sql.join(
        v.map((x) => sql`${x}`),
        sql`, `,
      )}]::text[]`
    : sql`'{}'::text[]`;
const hoodTokens = derivedTokensSql("string", sql`d.location_neighborhood`, sql`d.location_neighborhood_tok`);
const uuidArray = (ids: string[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;

export type Place = { city: string; state: string | null };
export type Where = { tenantId: string; networkIds: string[]; terminalStages: string[]; place: Place };

/** Same city (it leads an index with the tenant), sale, a public price and an area. */
function base(w: Where): SQL {
  const state = w.place.state ? sql` and d.location_state = ${w.place.state}` : sql``;
  return sql`d.location_city = ${w.place.city}${state}
    and d.listing_type = 'sale' and d.price > 0 and d.total_area > 0 and d.price_visibility = 'public' and d.visibility = 'public'
    and not coalesce(d.is_primary_market, false)`;
}

/**
 * Which listings are comparables: the tenant's own public listings on air or in a terminal stage
 * (a sold listing's last asking price is market evidence), and its networks' shared listings on
 * air. Private listings and hidden prices never enter: the explanation shows comparables.
 */
function scope(w: Where): SQL {
  const own = sql`(d.tenant_id = ${w.tenantId}::uuid and (d.on_air or d.stage = any(${textArray(w.terminalStages)})))`;
  if (!w.networkIds.length) return own;
  return sql`(${own} or (d.tenant_id <> ${w.tenantId}::uuid and d.network_ids && ${uuidArray(w.networkIds)} and d.on_air))`;
}

/**
 * The neighbourhood the visitor named, in its canonical spelling (same words whatever the accents,
 * case or punctuation: the index's token column), with its middle: the median position of the
 * tenant's listings there. Null when the tenant has no listing in a neighbourhood of that name.
 */
export async function findNeighborhood(db: DbOrTx, w: Where, typed: string): Promise<{ name: string; center: { lat: number; lng: number } | null } | null> {
  const tok = normalizeTokens(typed);
  if (!tok.length) return null;
  const rows = rowsOf<{ name: string | null; lat: number | null; lng: number | null }>(
    await db.execute(sql`
      select min(d.location_neighborhood) as name,
             percentile_cont(0.5) within group (order by d.location_latitude) as lat,
             percentile_cont(0.5) within group (order by d.location_longitude) as lng
      from search_documents d
      where d.tenant_id = ${w.tenantId}::uuid and ${hoodTokens} = ${textArray(tok)} and d.location_city = ${w.place.city}`),
  );
  const r = rows[0];
  if (!r?.name) return null;
  return { name: r.name, center: r.lat !== null && r.lng !== null ? { lat: Number(r.lat), lng: Number(r.lng) } : null };
}

export type CandidateQuery = Where & {
  propertyType: string;
  totalArea: number;
  neighborhood: string | null;
  center: { lat: number; lng: number } | null;
  /** The benchmark's leave-one-out: the listing being valued is not its own comparable. */
  excludeListingId?: string;
};

/**
 * Candidates of the subject's type group in its city, the PREFETCH closest by a coarse score
 * (flat-earth distance and log-size ratio) computed in the database; `estimate` ranks them exactly.
 */
export async function loadCandidates(db: DbOrTx, q: CandidateQuery): Promise<Candidate[]> {
  // First the listings within BOX_KM of the neighbourhood's middle (a latitude range of the
  // valuation index, so a big city is not read whole); the whole city only when that is too few.
  if (q.center) {
    const near = await candidates(db, q, boxOf(q.center));
    if (near.length >= MIN_NEAR) return near;
  }
  return candidates(db, q, sql``);
}

/** Half the side of the first search's box, and the fewest candidates it must give to be enough. */
const BOX_KM = 2.5;
const MIN_NEAR = 30;

function boxOf(c: { lat: number; lng: number }): SQL {
  const dLat = BOX_KM / 111.32;
  const dLng = BOX_KM / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return sql` and d.location_latitude between ${c.lat - dLat} and ${c.lat + dLat} and d.location_longitude between ${c.lng - dLng} and ${c.lng + dLng}`;
}

async function candidates(db: DbOrTx, q: CandidateQuery, box: SQL): Promise<Candidate[]> {
  const group = typeGroup(q.propertyType);
  const types = [...new Set([q.propertyType, ...Object.keys(TYPE_GROUPS).filter((t) => TYPE_GROUPS[t] === group)])];
  const geo = q.center
    ? sql`sqrt(power((d.location_latitude - ${q.center.lat}) * 111.32, 2) + power((d.location_longitude - ${q.center.lng}) * ${111.32 * Math.cos((q.center.lat * Math.PI) / 180)}, 2)) / 1.5`
    : sql`0`;
  const nb = q.neighborhood ? sql`(case when d.location_neighborhood = ${q.neighborhood} then 0 else 0.4 end)` : sql`0`;
  const exclude = q.excludeListingId ? sql` and d.listing_id <> ${q.excludeListingId}::uuid` : sql``;
  const rows = rowsOf<{
    neighborhood: string | null;
    lat: number | null;
    lng: number | null;
    total_area: number;
    bedrooms: number | null;
    bathrooms: number | null;
    parking_spots: number | null;
    property_type: string;
    price: number;
  }>(
    await db.execute(sql`
      select d.location_neighborhood as neighborhood, d.location_latitude as lat, d.location_longitude as lng, d.total_area,
             d.bedrooms, d.bathrooms, d.parking_spots, d.property_type, d.price
      from search_documents d
      where ${base(q)} and ${scope(q)} and d.property_type = any(${textArray(types)})${box}${exclude}
      order by coalesce(${geo}, 2) + abs(ln(d.total_area / ${q.totalArea})) / 0.2 + ${nb}
      limit ${PREFETCH}`),
  );
  return rows.map((r) => ({
    neighborhood: r.neighborhood ?? "",
    neighborhoodKey: neighborhoodKey(r.neighborhood ?? ""),
    lat: r.lat === null ? null : Number(r.lat),
    lng: r.lng === null ? null : Number(r.lng),
    totalArea: Number(r.total_area),
    bedrooms: r.bedrooms,
    bathrooms: r.bathrooms,
    parkingSpaces: r.parking_spots,
    propertyType: r.property_type,
    price: Number(r.price),
  }));
}

/** Accent-, case- and punctuation-insensitive key of a neighbourhood name. */
export const neighborhoodKey = (name: string) => normalizeTokens(name).join(" ");
