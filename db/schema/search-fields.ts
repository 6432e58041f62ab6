/**
 * The search document's fields: one list drives the PostgreSQL table, the `filter_by` allow-list,
 * the facet and sort allow-lists and the Typesense collection, so they cannot drift apart.
 * Names are the document's (spec 1 §2.3, spec 2 §2.2); columns are their snake_case. It lives
 * with the schema because the search tables are built from it; lib/search/fields.ts adds what
 * queries need (the filter allow-list, sortability, text weights).
 */
/** Typesense's field types, as the filter language names them (no `geopoint`: the location is two columns). */
export type SearchFieldType = "string" | "string[]" | "int32" | "int64" | "float" | "bool";

export type SearchField = {
  name: string;
  type: SearchFieldType;
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
  str("title", { sort: true, wide: true }),
  str("description", { wide: true }),
  str("title_en", { wide: true }),
  str("description_en", { wide: true }),
  str("title_es", { wide: true }),
  str("description_es", { wide: true }),
  str("listingCode", { sort: true }),
  str("listingType", { facet: true }),
  str("propertyType", { facet: true }),
  str("location_neighborhood", { facet: true, sort: true }),
  str("location_city", { facet: true, sort: true }),
  str("location_state", { facet: true }),
  str("location_street"),
  str("visibility", { facet: true }),
  str("stage", { facet: true }),
  str("status", { facet: true }),
  str("priceVisibility"),
  str("marketType", { facet: true }),
  str("typologyId", { wide: true }),
  str("buildingId", { wide: true }),
  str("propertyId", { wide: true }),
  str("typologyName", { wide: true }),
  str("typologyCode", { wide: true }),
  str("constructionStatus", { facet: true }),
  str("expectedDelivery", { wide: true }),
  str("occupancyStatus", { facet: true }),
  str("condition", { facet: true }),
  str("slaStatus", { facet: true }),
  str("providerName", { facet: true }),
  strs("features", { facet: true, wide: true }),
  strs("propertyFeatures", { facet: true }),
  strs("buildingAmenities", { facet: true }),
  num("price", { facet: true }),
  int("bedrooms", { facet: true }),
  int("bathrooms", { facet: true }),
  int("suites", { facet: true }),
  int("parkingSpots", { facet: true }),
  num("totalArea"),
  num("privateArea"),
  num("condoFee"),
  num("propertyTax"),
  int("photoCount"),
  int("videoCount"),
  int("tourCount"),
  int("availableUnits"),
  int("typologyTotalUnits"),
  num("typologyBasePrice"),
  num("typologyPricePerSqm"),
  int("listingScore"),
  int("qualityScore"),
  int("viewsCount"),
  int("leadsCount"),
  big("createdAt"),
  big("updatedAt"),
  big("publishedAt"),
  bool("hasPhotos"),
  bool("hasVideo"),
  bool("hasVirtualTour"),
  bool("isPrimaryMarket"),
  bool("hasAvailableUnits"),
  bool("hasPartnership"),
  bool("isExclusive"),
  bool("hasActiveExclusivity"),
  bool("hasIntegrationError"),
  bool("hasProviderSync"),
];

export const GEO_FIELD = "location";
export const LAT_COLUMN = "location_latitude";
export const LNG_COLUMN = "location_longitude";

export const columnOf = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const tokensOf = (f: SearchField) => `${columnOf(f.name)}_${f.type === "string[]" ? "elems" : "tok"}`;
