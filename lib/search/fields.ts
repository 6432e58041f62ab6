import type { FieldType, FilterSchema } from "./filter";

/**
 * The search document's fields: one list drives the PostgreSQL table, the `filter_by` allow-list,
 * the facet and sort allow-lists and the Typesense collection, so they cannot drift apart.
 * Names are the document's (spec 1 §2.3, spec 2 §2.2); columns are their snake_case.
 */
export type SearchField = {
  name: string;
  type: Exclude<FieldType, "geopoint">;
  facet?: boolean;
  /** Strings are not sortable unless marked (Typesense's rule); numbers and bools always are. */
  sort?: boolean;
  /**
   * Long or rarely filtered text lives in the wide table (`search_texts`), so the table every
   * filter, count and facet scans stays narrow and cached.
   */
  wide?: boolean;
};

const str = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "string", ...o });
const strs = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "string[]", ...o });
const int = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "int32", ...o });
const big = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "int64", ...o });
const num = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "float", ...o });
const bool = (name: string, o: Partial<SearchField> = {}): SearchField => ({ name, type: "bool", facet: true, ...o });

export const SEARCH_FIELDS: SearchField[] = [
  str("title", { sort: true, wide: true }), str("description", { wide: true }),
  str("title_en", { wide: true }), str("description_en", { wide: true }), str("title_es", { wide: true }), str("description_es", { wide: true }),
  str("listingCode", { sort: true }), str("listingType", { facet: true }), str("propertyType", { facet: true }),
  str("location_neighborhood", { facet: true, sort: true }), str("location_city", { facet: true, sort: true }),
  str("location_state", { facet: true }), str("location_street"),
  str("visibility", { facet: true }), str("stage", { facet: true }), str("status", { facet: true }), str("priceVisibility"),
  str("marketType", { facet: true }), str("typologyId", { wide: true }), str("buildingId", { wide: true }), str("propertyId", { wide: true }),
  str("typologyName", { wide: true }), str("typologyCode", { wide: true }), str("constructionStatus", { facet: true }), str("expectedDelivery", { wide: true }),
  str("occupancyStatus", { facet: true }), str("condition", { facet: true }), str("slaStatus", { facet: true }),
  str("providerName", { facet: true }),
  strs("features", { facet: true, wide: true }), strs("propertyFeatures", { facet: true }), strs("buildingAmenities", { facet: true }),
  num("price", { facet: true }), int("bedrooms", { facet: true }), int("bathrooms", { facet: true }), int("suites", { facet: true }),
  int("parkingSpots", { facet: true }), num("totalArea"), num("privateArea"), num("condoFee"), num("propertyTax"),
  int("photoCount"), int("videoCount"), int("tourCount"),
  int("availableUnits"), int("typologyTotalUnits"), num("typologyBasePrice"), num("typologyPricePerSqm"),
  int("listingScore"), int("qualityScore"), int("viewsCount"), int("leadsCount"),
  big("createdAt"), big("updatedAt"), big("publishedAt"),
  bool("hasPhotos"), bool("hasVideo"), bool("hasVirtualTour"), bool("isPrimaryMarket"), bool("hasAvailableUnits"),
  bool("hasPartnership"), bool("isExclusive"), bool("hasActiveExclusivity"), bool("hasIntegrationError"), bool("hasProviderSync"),
];

export const GEO_FIELD = "location";
export const LAT_COLUMN = "location_latitude";
export const LNG_COLUMN = "location_longitude";

export const columnOf = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const tokensOf = (f: SearchField) => `${columnOf(f.name)}_${f.type === "string[]" ? "elems" : "tok"}`;

/** The `filter_by` allow-list: only these names can appear in a filter. */
export const FILTER_SCHEMA: FilterSchema = Object.freeze({
  id: { type: "string", column: "listing_id" },
  ...Object.fromEntries(
    SEARCH_FIELDS.map((f) => [
      f.name,
      f.type === "string" || f.type === "string[]" ? { type: f.type, column: columnOf(f.name), tokens: tokensOf(f), derived: true } : { type: f.type, column: columnOf(f.name) },
    ]),
  ),
  [GEO_FIELD]: { type: "geopoint", column: LAT_COLUMN, lat: LAT_COLUMN, lng: LNG_COLUMN },
});

export const fieldByName = (name: string): SearchField | undefined =>
  Object.prototype.hasOwnProperty.call(FIELD_INDEX, name) ? FIELD_INDEX[name] : undefined;
const FIELD_INDEX: Record<string, SearchField> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.name, f]));

export const isSortable = (f: SearchField) => f.type !== "string" && f.type !== "string[]" ? true : Boolean(f.sort);

/**
 * Full-text fields and the tsvector weight class each is indexed under; `query_by` picks classes,
 * so searching titles does not match words that only appear in descriptions.
 */
export const TEXT_WEIGHTS: Record<string, "A" | "B" | "C" | "D"> = {
  title: "A", title_en: "A", title_es: "A",
  listingCode: "B", location_neighborhood: "B", location_city: "B", location_state: "B", location_street: "B",
  description: "C", description_en: "C", description_es: "C",
  propertyType: "D", typologyName: "D", features: "D",
};
