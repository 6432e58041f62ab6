import { z } from "zod";
import type { MemberCtx } from "../context/verb-context";
import { invalid } from "../errors/domain-errors";
import { pageSchema, queryInt } from "../schemas/paging";
import { loadTenant } from "../tenants/load-tenant";
import { anyOf, boolIs, geoCircle, numCmp, strContains, strExact } from "./ast-build";
import type { SearchHit } from "./engine";
import type { FilterNode } from "./filter";
import { memberNetworkIds } from "../networks/networks";
import { toSearchRequest } from "./params";
import { searchEngine } from "./search-engine";
import { normalizeTokens } from "./filter";

const bool = (name: string) => z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true");
const decimal = (name: string) =>
  z
    .string()
    .regex(/^-?\d{1,12}(\.\d+)?$/, `${name} must be a number`)
    .transform(Number);
/** Repeated keys or comma-separated values. */
const list = z.union([z.string(), z.array(z.string())]).transform((v) =>
  [v]
    .flat()
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean),
);

export const ListingSearchQuery = z
  .strictObject({
    query: z.string().max(200).optional().meta({ description: "Free text over title, listing code and address." }),
    page: queryInt("page", 1, 10_000).default(1),
    pageSize: queryInt("pageSize", 1, 100).default(20),
    type: z.enum(["sale", "rental"]).optional(),
    visibility: z.enum(["public", "private"]).optional().meta({ description: "Omit for both." }),
    hasPhotos: bool("hasPhotos").optional(),
    minPhotos: queryInt("minPhotos", 0, 1000).optional(),
    hasVirtualTour: bool("hasVirtualTour").optional(),
    hasVideo: bool("hasVideo").optional(),
    bedrooms: queryInt("bedrooms", 0, 99).optional().meta({ description: "Minimum." }),
    minArea: decimal("minArea").optional(),
    maxArea: decimal("maxArea").optional(),
    budget: decimal("budget").optional().meta({ description: "Maximum price, BRL." }),
    propertyTypes: list.optional().meta({ description: "Property type ids or labels (repeat the key or separate with commas)." }),
    locations: list.optional().meta({ description: "Neighborhoods, streets or cities." }),
    neighborhood: z.string().max(120).optional(),
    city: z.string().max(120).optional(),
    state: z.string().max(40).optional(),
    latitude: decimal("latitude").pipe(z.number().min(-90).max(90)).optional(),
    longitude: decimal("longitude").pipe(z.number().min(-180).max(180)).optional(),
    radiusKm: decimal("radiusKm").pipe(z.number().positive().max(1000)).optional(),
    filter: z.string().max(4000).optional().meta({ description: "Raw filter_by expression, ANDed with the typed filters." }),
    includeNetworks: bool("includeNetworks").default(true),
  })
  .meta({ id: "ListingSearchQuery" });

export type ListingSearchInput = z.infer<typeof ListingSearchQuery>;

export const SearchItemSchema = z
  .object({
    id: z.uuid(),
    listingCode: z.string(),
    title: z.string(),
    type: z.enum(["sale", "rental"]),
    price: z.number().nullable(),
    visibility: z.enum(["public", "private"]),
    stage: z.string(),
    location: z.object({
      street: z.string().nullable(),
      neighborhood: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
    }),
    features: z.object({ area: z.number().nullable(), rooms: z.number().nullable(), bathrooms: z.number().nullable(), garageSpots: z.number().nullable() }),
    primaryImageUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    publishedAt: z.string().nullable(),
    isNetworkListing: z.boolean(),
  })
  .meta({ id: "ListingSearchItem" });

export type SearchItem = z.infer<typeof SearchItemSchema>;

/** The answer of `searchListings`. */
export const ListingSearchPageSchema = pageSchema(SearchItemSchema, "ListingSearchPage", "Listings matching the search, over all pages.");

const ADDRESS_FIELDS = ["title", "listingCode", "location_street", "location_neighborhood", "location_city"];

/** `GET /listings/search`: typed parameters become filter nodes, ANDed with the raw `filter`. */
export async function searchListings({ db, actor }: MemberCtx, q: ListingSearchInput): Promise<z.infer<typeof ListingSearchPageSchema>> {
  // Settings are needed only to resolve property type labels.
  const types = q.propertyTypes?.length ? (await loadTenant(db, actor.tenantId)).settings.propertyTypes : [];
  const filters = typedFilters(q, types);
  const req = toSearchRequest(
    { q: q.query?.trim() ? q.query : "*", query_by: ADDRESS_FIELDS.join(","), filter_by: q.filter, page: q.page, per_page: q.pageSize },
    { maxPerPage: 100, extraFilters: filters },
  );
  const scope = {
    tenantId: actor.tenantId,
    access: actor.access === "broad" ? ({ kind: "all" } as const) : ({ kind: "restricted", userId: actor.userId } as const),
    networkIds: q.includeNetworks ? await memberNetworkIds(db, actor.tenantId) : [],
  };
  const result = await (await searchEngine()).search(scope, req);
  return { items: result.hits.map(toItem), total: result.found, page: q.page, pageSize: q.pageSize };
}

export function typedFilters(q: Partial<ListingSearchInput>, types: { id: string; label: string }[]): FilterNode[] {
  const f: FilterNode[] = [];
  if (q.type) f.push(strExact("listingType", [q.type]));
  if (q.visibility) f.push(strExact("visibility", [q.visibility]));
  if (q.hasPhotos !== undefined) f.push(boolIs("hasPhotos", q.hasPhotos));
  if (q.minPhotos !== undefined) f.push(numCmp("photoCount", ">=", q.minPhotos));
  if (q.hasVirtualTour !== undefined) f.push(boolIs("hasVirtualTour", q.hasVirtualTour));
  if (q.hasVideo !== undefined) f.push(boolIs("hasVideo", q.hasVideo));
  if (q.bedrooms !== undefined) f.push(numCmp("bedrooms", ">=", q.bedrooms));
  if (q.minArea !== undefined) f.push(numCmp("totalArea", ">=", q.minArea));
  if (q.maxArea !== undefined) f.push(numCmp("totalArea", "<=", q.maxArea));
  if (q.budget !== undefined) f.push(numCmp("price", "<=", q.budget));
  if (q.propertyTypes?.length)
    f.push(
      strExact(
        "propertyType",
        q.propertyTypes.map((t) => resolveType(t, types)),
      ),
    );
  if (q.locations?.length) {
    f.push(anyOf([strExact("location_neighborhood", q.locations), strExact("location_city", q.locations), strContains("location_street", q.locations)]));
  }
  if (q.neighborhood) f.push(strExact("location_neighborhood", [q.neighborhood]));
  if (q.city) f.push(strExact("location_city", [q.city]));
  if (q.state) f.push(strExact("location_state", [q.state]));
  const geo = [q.latitude, q.longitude, q.radiusKm];
  if (geo.some((v) => v !== undefined)) {
    if (geo.some((v) => v === undefined)) throw invalid("latitude, longitude and radiusKm: send all three for a radius search.");
    f.push(geoCircle(q.latitude!, q.longitude!, q.radiusKm! * 1000));
  }
  return f;
}

/** An id, or a label compared without case or accents ("apartamento" finds "Apartamento"). */
function resolveType(value: string, types: { id: string; label: string }[]): string {
  const norm = (s: string) => normalizeTokens(s).join(" ");
  const hit = types.find((t) => t.id === value) ?? types.find((t) => norm(t.label) === norm(value));
  if (!hit) throw invalid(`propertyTypes: '${value}' is neither the id nor the label of one of the tenant's property types.`);
  return hit.id;
}

const iso = (epoch: unknown) => (typeof epoch === "number" ? new Date(epoch * 1000).toISOString() : null);

/** The spec 1 §2.3 item, from the search document (an allow-list: nothing else leaves). */
function toItem(hit: SearchHit): SearchItem {
  const d = hit.document as Record<string, any>;
  return {
    id: d.id,
    listingCode: d.listingCode,
    title: d.title,
    type: d.listingType,
    price: d.price ?? null,
    visibility: d.visibility,
    stage: d.stage,
    location: {
      street: d.location_street ?? null,
      neighborhood: d.location_neighborhood ?? null,
      city: d.location_city ?? null,
      state: d.location_state ?? null,
      latitude: d.location_latitude ?? null,
      longitude: d.location_longitude ?? null,
    },
    features: { area: d.totalArea ?? null, rooms: d.bedrooms ?? null, bathrooms: d.bathrooms ?? null, garageSpots: d.parkingSpots ?? null },
    primaryImageUrl: d.primaryImageUrl ?? null,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    publishedAt: iso(d.publishedAt),
    isNetworkListing: hit.isNetworkListing,
  };
}
