import { FILTER_SCHEMA, GEO_FIELD } from "../search/fields";
import type { FilterSchema } from "../search/filter";

/**
 * The fields of the public search document (spec 2 §2.2): the only names a public answer is
 * built from, and the only ones a public search may query, sort, facet or filter by. Internal
 * signals of the index (visibility, stage, views, leads, scores, partnership flags...) are not
 * here, so a visitor cannot even probe them through a filter.
 */
export const COMMON_FIELDS = [
  "id",
  "title",
  "description",
  "title_en",
  "description_en",
  "title_es",
  "description_es",
  "price",
  "priceFormatted",
  "listingType",
  "listingCode",
  "propertyType",
  "bedrooms",
  "bathrooms",
  "parkingSpots",
  "totalArea",
  "location_neighborhood",
  "location_city",
  "location_state",
  "location_latitude",
  "location_longitude",
  "primaryImageUrl",
  "imageUrls",
] as const;

export const DETAIL_FIELDS = [
  "suites",
  "privateArea",
  "features",
  "condoFee",
  "propertyTax",
  "location_street",
  "imageOrigins",
  "hasProviderStagedPhotos",
  "videoUrl",
  "tourUrl",
] as const;

export const PRIMARY_MARKET_FIELDS = [
  "isPrimaryMarket",
  "marketType",
  "typologyId",
  "buildingId",
  "typologyName",
  "typologyCode",
  "constructionStatus",
  "expectedDelivery",
  "availableUnits",
  "typologyTotalUnits",
  "typologyBasePrice",
  "typologyPricePerSqm",
  "hasAvailableUnits",
] as const;

/** Index-only fields a site may filter and sort by although they are not in the document. */
const FILTER_ONLY = ["propertyFeatures", "buildingAmenities", "createdAt", "updatedAt", "publishedAt", "hasPhotos", "hasVideo", "hasVirtualTour", "photoCount"];

export const PUBLIC_SEARCH_FIELDS: ReadonlySet<string> = new Set([...COMMON_FIELDS, ...DETAIL_FIELDS, ...PRIMARY_MARKET_FIELDS, ...FILTER_ONLY]);

export const PUBLIC_FILTER_SCHEMA: FilterSchema = Object.freeze(
  Object.fromEntries(Object.entries(FILTER_SCHEMA).filter(([name]) => name === "id" || name === GEO_FIELD || PUBLIC_SEARCH_FIELDS.has(name))),
);

/** What a site searches when the caller names no fields: the Portuguese copy and the address. */
export const SITE_DEFAULT_QUERY_BY = ["title", "description", "location_neighborhood", "location_city", "listingCode"];
