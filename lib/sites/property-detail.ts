import { z } from "zod";
import { invalid } from "../errors/domain-errors";
import { UUID_PATTERN } from "../schemas/uuid";
import type { Db } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import type { SearchHit } from "../search/engine";
import { findSiteListing, propertyNotFound } from "./find-site-listing";
import { type PublicListingDocumentSchema, toPublicDocument } from "./public-document";
import { recordSiteView } from "../share/record-access";
import { siteCatalogue, type SiteCatalogue } from "./site-catalogue";
import { shortlistListing } from "../share/shortlist-listing";

export const PropertyDetailQuery = z.strictObject({
  shortlistId: z.string().max(100).optional().meta({
    description:
      "A shortlist (UUID) shared by a live link: its listings can be seen while unpublished, with the tenant's sharing rules applied. Not a UUID: 400.",
  }),
});

/** `catalogue`: the site's search scope the listing was found in, for the page's similar listings. */
export type FoundDetail = { doc: Record<string, unknown>; listingId: string | null; hit: SearchHit | null; catalogue: SiteCatalogue };

/**
 * The detail document (spec 2 §2.2) without counting a view, or 404 `Property not found`.
 * `listingId` is set when an open of it counts as a site view of this tenant's listing: a
 * partner's listing shown on this site is not this tenant's to count.
 */
export async function findPropertyDetail(db: Db, site: SiteRow, ref: string, q: z.infer<typeof PropertyDetailQuery> = {}): Promise<FoundDetail> {
  if (q.shortlistId !== undefined && !UUID_PATTERN.test(q.shortlistId))
    throw invalid(`shortlistId: '${q.shortlistId.slice(0, 60)}' is not a UUID`, "invalid_parameter");
  const catalogue = await siteCatalogue(db, site);
  const hit = await findSiteListing(db, site, ref, catalogue);
  const doc = hit ? toPublicDocument(hit.document, { detail: true }) : q.shortlistId ? await shortlistListing(db, site, ref, q.shortlistId) : null;
  if (!doc) throw propertyNotFound();
  return { doc, listingId: typeof doc.id === "string" && !hit?.isNetworkListing ? doc.id : null, hit, catalogue };
}

/** `GET /api/sites/{siteId}/property/{id}`: the detail document (spec 2 §2.2), or 404 `Property not found`. */
/** Each answered detail counts as a site view of the listing (in the background; seller reports read it). */
export async function propertyDetail(
  db: Db,
  site: SiteRow,
  ref: string,
  q: z.infer<typeof PropertyDetailQuery> = {},
): Promise<z.infer<typeof PublicListingDocumentSchema>> {
  const { doc, listingId } = await findPropertyDetail(db, site, ref, q);
  if (listingId) recordSiteView(db, site.tenantId, listingId);
  return doc;
}
