import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { findSiteListing, propertyNotFound } from "./find-site-listing";
import { toPublicDocument } from "./public-document";
import { shortlistListing } from "../share/shortlist-listing";

export const PropertyDetailQuery = z.strictObject({
  shortlistId: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "A shortlist shared by a live link: its listings can be seen while unpublished, with the tenant's sharing rules applied." }),
});

/** `GET /api/sites/{siteId}/property/{id}`: the detail document (spec 2 §2.2), or 404 `Property not found`. */
export async function propertyDetail(db: DbOrTx, site: SiteRow, ref: string, q: z.infer<typeof PropertyDetailQuery> = {}): Promise<Record<string, unknown>> {
  const hit = await findSiteListing(db, site, ref);
  if (hit) return toPublicDocument(hit.document, { detail: true });
  const viaShortlist = q.shortlistId ? await shortlistListing(db, site, ref, q.shortlistId) : null;
  if (!viaShortlist) throw propertyNotFound();
  return viaShortlist;
}
