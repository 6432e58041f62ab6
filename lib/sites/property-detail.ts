import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { findSiteListing, propertyNotFound } from "./find-site-listing";
import { toPublicDocument } from "./public-document";

export const PropertyDetailQuery = z.strictObject({
  shortlistId: z.string().max(100).optional().meta({ description: "Accepted for compatibility; shortlists do not widen visibility yet." }),
});

/** `GET /api/sites/{siteId}/property/{id}`: the detail document (spec 2 §2.2), or 404 `Property not found`. */
export async function propertyDetail(db: DbOrTx, site: SiteRow, ref: string): Promise<Record<string, unknown>> {
  const hit = await findSiteListing(db, site, ref);
  if (!hit) throw propertyNotFound();
  return toPublicDocument(hit.document, { detail: true });
}
