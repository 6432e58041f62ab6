/**
 * The ceiling of the search benchmark: the same query mix as hand-written SQL on the same tables and
 * indexes (the hot covering index, the (tenant, tsv) GIN index, the documents by primary key), as
 * prepared statements with no parsing, filter compiling, price masking or result shaping. Each query
 * does the work the engine's answer needs: the page, the total, the facets and the page's documents.
 */
import type postgres from "postgres";
import type { RawSearchParams } from "../../lib/search/params";
import { DERIVED_SQL_HEAD, DERIVED_SQL_TAIL } from "../../lib/search/filter";
import { DOC_COLUMN_NAMES } from "../../lib/search/stored-document";

const DOC_COLUMN_LIST = DOC_COLUMN_NAMES.join(", ");

type Sql = postgres.Sql;
type Ids = { listing_id: string }[];

const bt = (s: string) => s.replace(/`/g, "");
const words = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).filter(Boolean);
const tokens = (s: string) => words(s).join(" ");
/** A field's tokens as stored: the copy, or derived from the value (lib/search/filter/normalize.ts, storedTokens). */
const tok = (column: string) => `coalesce(${column}_tok, ${DERIVED_SQL_HEAD}${column}${DERIVED_SQL_TAIL})`;
const dist = (lat: number, lng: number) =>
  `(2 * 6371010 * asin(sqrt(power(sin(radians(location_latitude - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(location_latitude)) * power(sin(radians(location_longitude - ${lng}) / 2), 2))))`;

async function docs(sql: Sql, rows: Ids) {
  if (!rows.length) return [];
  // The stored document's columns, as they are (the engine builds the document from them).
  return sql`select ${sql.unsafe(DOC_COLUMN_LIST)} from search_index where listing_id = any(${rows.map((r) => r.listing_id)}::uuid[])`;
}

/** Runs one query of the mix as hand-written SQL; returns the total it found. */
export async function ceilingQuery(sql: Sql, tenant: string, p: RawSearchParams): Promise<number> {
  const f = String(p.filter_by ?? "");
  const limit = Number(p.per_page ?? 10);
  const offset = (Number(p.page ?? 1) - 1) * limit;
  let m: RegExpMatchArray | null;
  if (p.q !== "*") {
    const ws = words(String(p.q));
    const labels = String(p.query_by).includes("description") ? "ABC" : "AB";
    const q = ws.map((w, i) => `${w}:${i === ws.length - 1 ? "*" : ""}${labels}`).join(" & ");
    if (!f) {
      const rows = await sql`select listing_id, count(*) over () as found from (
          select listing_id, created_at, ts_rank_cd(tsv, to_tsquery('pt_unaccent', ${q})) as rank from search_texts
          where tenant_id = ${tenant} and tsv @@ to_tsquery('pt_unaccent', ${q})) c
        order by rank desc, created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}`;
      await docs(sql, rows as unknown as Ids);
      return Number(rows[0]?.found ?? 0);
    }
    // bedrooms:>=2 with a neighborhood facet: candidates from the vectors, filter on the documents.
    const [rows, facets] = await Promise.all([
      sql`select c.listing_id, count(*) over () as found from (
          select listing_id, ts_rank_cd(tsv, to_tsquery('pt_unaccent', ${q})) as rank from search_texts
          where tenant_id = ${tenant} and tsv @@ to_tsquery('pt_unaccent', ${q})) c
        join search_documents d on d.listing_id = c.listing_id
        where d.tenant_id = ${tenant} and d.bedrooms >= 2
        order by c.rank desc, d.created_at desc nulls last, d.listing_id desc limit ${limit} offset ${offset}`,
      sql`select d.location_neighborhood, count(*) from search_texts t join search_documents d on d.listing_id = t.listing_id
        where t.tenant_id = ${tenant} and t.tsv @@ to_tsquery('pt_unaccent', ${q}) and d.tenant_id = ${tenant} and d.bedrooms >= 2
        group by 1 order by 2 desc limit 10`,
    ]);
    void facets;
    await docs(sql, rows as unknown as Ids);
    return Number(rows[0]?.found ?? 0);
  }
  let page: Promise<Ids>;
  let count: Promise<{ n: string }[]>;
  if ((m = f.match(/^bedrooms:>=(\d+) && price:<(\d+) && listingType:=sale$/))) {
    const [b, pr] = [Number(m[1]), Number(m[2])];
    page =
      sql`select listing_id from search_documents where tenant_id = ${tenant} and bedrooms >= ${b} and price < ${pr} and ${sql.unsafe(tok("listing_type"))} = 'sale'
      order by created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    count =
      sql`select count(*) as n from search_documents where tenant_id = ${tenant} and bedrooms >= ${b} and price < ${pr} and ${sql.unsafe(tok("listing_type"))} = 'sale'` as never;
  } else if ((m = f.match(/^location_city:=(`[^`]+`) && hasPhotos:true && totalArea:\[50\.\.(\d+)\]$/))) {
    const [city, area] = [tokens(bt(m[1])), Number(m[2])];
    page =
      sql`select listing_id from search_documents where tenant_id = ${tenant} and ${sql.unsafe(tok("location_city"))} = ${city} and has_photos and total_area between 50 and ${area}
      order by created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    count =
      sql`select count(*) as n from search_documents where tenant_id = ${tenant} and ${sql.unsafe(tok("location_city"))} = ${city} and has_photos and total_area between 50 and ${area}` as never;
  } else if ((m = f.match(/^location_neighborhood:=\[(`[^`]+`), (`[^`]+`)\] && bedrooms:\[2\.\.4\] && propertyType:!=studio$/))) {
    const [a, b] = [tokens(bt(m[1])), tokens(bt(m[2]))];
    const where = sql`tenant_id = ${tenant} and (${sql.unsafe(tok("location_neighborhood"))} = ${a} or ${sql.unsafe(tok("location_neighborhood"))} = ${b}) and bedrooms between 2 and 4
      and ${sql.unsafe(tok("property_type"))} is distinct from 'studio'`;
    page =
      sql`select listing_id from search_documents where ${where} order by created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    count = sql`select count(*) as n from search_documents where ${where}` as never;
  } else if ((m = f.match(/^location:\(([-\d.]+), ([-\d.]+), (\d+) km\)$/))) {
    const [lat, lng, r] = [Number(m[1]), Number(m[2]), Number(m[3]) * 1000];
    const band = (r / 6371010) * (180 / Math.PI);
    const d = sql.unsafe(dist(lat, lng));
    const where = sql`tenant_id = ${tenant} and location_latitude between ${lat - band} and ${lat + band} and ${d} <= ${r}`;
    page =
      sql`select listing_id from search_documents where ${where} order by ${d}, created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    count = sql`select count(*) as n from search_documents where ${where}` as never;
  } else if ((m = f.match(/^location_state:=(\w+)$/))) {
    const st = tokens(m[1]);
    page = sql`select listing_id from search_documents where tenant_id = ${tenant} and ${sql.unsafe(tok("location_state"))} = ${st}
      order by created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    // Facets, total and stats in one pass, as the engine does.
    const groups = sql`select grouping(location_city, bedrooms, property_type) as g, count(*) as n,
        min(bedrooms), max(bedrooms), sum(bedrooms), avg(bedrooms) from search_documents
      where tenant_id = ${tenant} and ${sql.unsafe(tok("location_state"))} = ${st}
      group by grouping sets ((location_city), (bedrooms), (property_type), ())`;
    const [rows, g] = await Promise.all([page, groups]);
    await docs(sql, rows);
    return Number(g.find((r) => Number(r.g) === 7)?.n ?? 0);
  } else if ((m = f.match(/^location_city:=(`[^`]+`)$/)) && p.sort_by === "price:asc") {
    const city = tokens(bt(m[1]));
    page = sql`select listing_id from search_documents where tenant_id = ${tenant} and ${sql.unsafe(tok("location_city"))} = ${city}
      order by price asc nulls last, created_at desc nulls last, listing_id desc limit ${limit} offset ${offset}` as never;
    count = sql`select count(*) as n from search_documents where tenant_id = ${tenant} and ${sql.unsafe(tok("location_city"))} = ${city}` as never;
  } else {
    throw new Error(`ceilingQuery: no hand-written SQL for ${JSON.stringify(p)}`);
  }
  const [rows, n] = await Promise.all([page, count]);
  await docs(sql, rows);
  return Number(n[0].n);
}
