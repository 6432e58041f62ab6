import { z } from "zod";
import type { SiteRow } from "../../db/schema";
import { verificationRecordName } from "./domain/domain-claim";
import { domainKind } from "./domain/domain-policy";
import { deletedSchema, itemsSchema } from "../schemas/paging";
import { ListingCriteriaSchema, MetaPixelSchema } from "./site-schemas";
import { SiteChatSchema } from "./site-chat";

export const SiteSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string().meta({ description: "The host name, stored normalized: lower case, international names in ASCII (IDNA), no port, no trailing dot." }),
    domainStatus: z.enum(["active", "pending", "taken"]).meta({
      description:
        "`active`: the site holds the name and is served on it. `pending`: a custom domain waiting for its DNS proof (create the TXT record of `domainVerification`, then `POST /api/v1/sites/{siteId}/domain/verify`). `taken`: another site proved or holds the name; set another domain.",
    }),
    domainVerification: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
      .nullable()
      .meta({
        description:
          "The DNS record that proves a custom domain, until it is proven; null once proven and for names the service hands out. A custom domain held since before proofs existed shows it too: prove it to keep the name, since another tenant's proof would take it over.",
      }),
    active: z.boolean(),
    published: z.boolean(),
    configuration: z.record(z.string(), z.unknown()),
    listingCriteria: ListingCriteriaSchema,
    includeNetworkListings: z.boolean(),
    metaPixel: MetaPixelSchema.nullable(),
    chat: SiteChatSchema.nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Site" });
export type Site = z.infer<typeof SiteSchema>;

/** `listSites`. */
export const SiteListSchema = itemsSchema(SiteSchema, "SiteList");

/** `deleteSite`. */
export const DeletedSiteSchema = deletedSchema("DeletedSite");

/** The tenant-side view of a site (owner and admin keys). */
export function serializeSite(s: SiteRow): Site {
  return {
    id: s.id,
    name: s.name,
    domain: s.domain,
    domainStatus: s.domainStatus,
    domainVerification:
      s.domainToken && !s.domainVerifiedAt && domainKind(s.domain) === "custom"
        ? { type: "TXT", name: verificationRecordName(s.domain), value: s.domainToken }
        : null,
    active: s.active,
    published: s.published,
    configuration: s.configuration,
    listingCriteria: s.listingCriteria,
    includeNetworkListings: s.includeNetworkListings,
    metaPixel: s.metaPixel ?? null,
    chat: s.chat ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
