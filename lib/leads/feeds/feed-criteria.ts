import { z } from "zod";
import { ListingSearchQuery } from "../../search/listing-search";

/**
 * A channel's `feedCriteria`: the typed filters of `GET /listings/search` (and its raw `filter`),
 * stored as sent. Numbers and booleans may be sent as JSON values; they are read as the query
 * string would carry them, so both endpoints parse one schema.
 */
const FEED_KEYS = {
  type: true,
  hasPhotos: true,
  minPhotos: true,
  hasVirtualTour: true,
  hasVideo: true,
  bedrooms: true,
  minArea: true,
  maxArea: true,
  budget: true,
  propertyTypes: true,
  locations: true,
  neighborhood: true,
  city: true,
  state: true,
  latitude: true,
  longitude: true,
  radiusKm: true,
  filter: true,
} as const;

const asQueryValues = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === "number" || typeof x === "boolean" ? String(x) : x]))
    : v;

export const FeedCriteriaParser = z.preprocess(asQueryValues, ListingSearchQuery.pick(FEED_KEYS).partial());

export const FeedCriteriaSchema = z
  .record(z.string(), z.unknown())
  .superRefine((v, ctx) => {
    const r = FeedCriteriaParser.safeParse(v);
    if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: "custom", message: i.message, path: i.path });
  })
  .meta({
    description:
      "Filters the listings feed honours: the typed parameters of /listings/search (`type`, `bedrooms`, `budget`, `city`, `propertyTypes`...) and `filter`.",
  });
