/**
 * The in-process peer of the search benchmark: Orama (`@orama/orama`) loaded with the same documents
 * as the main tenant's, answering the same query mix as closely as its language allows.
 */
import { create, insertMultiple, search, type AnyOrama } from "@orama/orama";
import type { RawSearchParams } from "../../lib/search/params";

/** What Orama cannot say of our mix (printed beside its figures). */
export const ORAMA_GAPS = [
  "`found` for text queries counts Orama's own matches (BM25 with typo tolerance on every word), not Portuguese stemming with the last word as a prefix",
  "negations (`propertyType:!=studio`) exclude documents without a value; Typesense and we include them",
  "facets on number fields need explicit ranges (`bedrooms` facet given as one range per value); no numeric stats (min/max/sum/avg)",
  "no distance sort: `location(lat,lng):asc` runs as a custom JavaScript comparator over every match",
  "no tie-break on creation time for text matches and no typo fallback only when the exact query finds nothing",
];

type Doc = Record<string, unknown>;

export async function loadOrama(docs: Doc[]): Promise<{ db: AnyOrama; loadMs: number; heapMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const db = create({
    schema: {
      id: "string",
      title: "string",
      description: "string",
      location_neighborhood: "string",
      location_city: "string",
      neighborhood: "enum",
      city: "enum",
      state: "enum",
      listingType: "enum",
      propertyType: "enum",
      price: "number",
      bedrooms: "number",
      totalArea: "number",
      hasPhotos: "boolean",
      createdAt: "number",
      location: "geopoint",
    },
  });
  const rows = docs.map((d) => ({
    id: String(d.id),
    title: String(d.title ?? ""),
    description: String(d.description ?? ""),
    location_neighborhood: String(d.location_neighborhood ?? ""),
    location_city: String(d.location_city ?? ""),
    neighborhood: String(d.location_neighborhood ?? ""),
    city: String(d.location_city ?? ""),
    state: String(d.location_state ?? ""),
    listingType: String(d.listingType ?? ""),
    propertyType: String(d.propertyType ?? ""),
    price: Number(d.price ?? 0),
    bedrooms: Number(d.bedrooms ?? 0),
    totalArea: Number(d.totalArea ?? 0),
    hasPhotos: Boolean(d.hasPhotos),
    createdAt: Number(d.createdAt ?? 0),
    location: { lat: Number(d.location_latitude ?? 0), lon: Number(d.location_longitude ?? 0) },
  }));
  await insertMultiple(db, rows, 2000);
  const loadMs = performance.now() - t0;
  rows.length = 0;
  gc?.();
  return { db, loadMs, heapMb: (process.memoryUsage().heapUsed - before) / 1024 / 1024 };
}

const num = (s: string) => Number(s);
const haversine = (lat1: number, lng1: number, lat2: number, lng2: number) => {
  const r = (x: number) => (x * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 2 * 6371010 * Math.asin(Math.min(1, Math.sqrt(a)));
};
const bt = (s: string) => s.replace(/`/g, "");

/**
 * One query of the mix in Orama's terms. Only the eight shapes `queryMix` produces are translated
 * (by their filter text), so a change to the mix fails loudly here.
 */
export function oramaQuery(p: RawSearchParams): Record<string, unknown> {
  const f = String(p.filter_by ?? "");
  const limit = Number(p.per_page ?? 10);
  const offset = (Number(p.page ?? 1) - 1) * limit;
  const byNewest = { sortBy: { property: "createdAt", order: "DESC" } };
  let m: RegExpMatchArray | null;
  if (p.q !== "*") {
    const props = String(p.query_by)
      .split(",")
      .filter((x) => ["title", "description", "location_neighborhood", "location_city"].includes(x));
    const where = f === "bedrooms:>=2" ? { bedrooms: { gte: 2 } } : undefined;
    const facets = p.facet_by === "location_neighborhood" ? { neighborhood: { limit: 10 } } : undefined;
    return { term: p.q, properties: props, where, facets, limit, offset };
  }
  if ((m = f.match(/^bedrooms:>=(\d+) && price:<(\d+) && listingType:=sale$/))) {
    return { where: { bedrooms: { gte: num(m[1]) }, price: { lt: num(m[2]) }, listingType: { eq: "sale" } }, limit, offset, ...byNewest };
  }
  if ((m = f.match(/^location_city:=(`[^`]+`) && hasPhotos:true && totalArea:\[50\.\.(\d+)\]$/))) {
    return { where: { city: { eq: bt(m[1]) }, hasPhotos: true, totalArea: { between: [50, num(m[2])] } }, limit, offset, ...byNewest };
  }
  if ((m = f.match(/^location_neighborhood:=\[(`[^`]+`), (`[^`]+`)\] && bedrooms:\[2\.\.4\] && propertyType:!=studio$/))) {
    return {
      where: { neighborhood: { in: [bt(m[1]), bt(m[2])] }, bedrooms: { between: [2, 4] }, propertyType: { nin: ["studio"] } },
      limit,
      offset,
      ...byNewest,
    };
  }
  if ((m = f.match(/^location:\(([-\d.]+), ([-\d.]+), (\d+) km\)$/))) {
    const lat = num(m[1]);
    const lng = num(m[2]);
    type Hit = [unknown, number, { location: { lat: number; lon: number } }];
    return {
      where: { location: { radius: { coordinates: { lat, lon: lng }, value: num(m[3]), unit: "km", inside: true, highPrecision: true } } },
      sortBy: (a: Hit, b: Hit) => haversine(lat, lng, a[2].location.lat, a[2].location.lon) - haversine(lat, lng, b[2].location.lat, b[2].location.lon),
      limit,
      offset,
    };
  }
  if ((m = f.match(/^location_state:=(\w+)$/))) {
    return {
      where: { state: { eq: m[1] } },
      facets: { city: { limit: 10 }, bedrooms: { ranges: [1, 2, 3, 4, 5].map((n) => ({ from: n, to: n })) }, propertyType: { limit: 10 } },
      limit,
      offset,
      ...byNewest,
    };
  }
  if ((m = f.match(/^location_city:=(`[^`]+`)$/)) && p.sort_by === "price:asc") {
    return { where: { city: { eq: bt(m[1]) } }, sortBy: { property: "price", order: "ASC" }, limit, offset };
  }
  throw new Error(`oramaQuery: no translation for ${JSON.stringify(p)}`);
}

export async function oramaSearch(db: AnyOrama, q: Record<string, unknown>) {
  return search(db, q as never);
}
