import { z } from "zod";
import type { SiteRow } from "../../db/schema";
import { ListingCriteriaSchema, MetaPixelSchema } from "./site-schemas";

export const SiteSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    active: z.boolean(),
    published: z.boolean(),
    configuration: z.record(z.string(), z.unknown()),
    listingCriteria: ListingCriteriaSchema,
    includeNetworkListings: z.boolean(),
    metaPixel: MetaPixelSchema.nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Site" });
export type Site = z.infer<typeof SiteSchema>;

/** The tenant-side view of a site (owner and admin keys). */
export function serializeSite(s: SiteRow): Site {
  return {
    id: s.id,
    name: s.name,
    domain: s.domain,
    active: s.active,
    published: s.published,
    configuration: s.configuration,
    listingCriteria: s.listingCriteria,
    includeNetworkListings: s.includeNetworkListings,
    metaPixel: s.metaPixel ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
