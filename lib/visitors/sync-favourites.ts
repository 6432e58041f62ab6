import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import type { SiteRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { invalid } from "../errors/domain-errors";
import { UUID_PATTERN } from "../schemas/uuid";
import { findSiteListings } from "../sites/find-site-listing";
import { storableJson } from "../util/storable-text";
import { copyInterests } from "./attach-interests";

/** Favourites a browser may keep on one site; the compare view takes 4 of them. */
export const MAX_FAVOURITES = 50;
export const MAX_COMPARED = 4;

const ids = (max: number, what: string) =>
  z
    .array(z.uuid("must be a listing id (UUID)").transform((v) => v.toLowerCase()))
    .max(max, `at most ${max} ${what}`)
    .transform((a) => [...new Set(a)]);

export const SyncFavouritesBody = z
  .strictObject({
    listingIds: ids(MAX_FAVOURITES, "favourites").meta({
      description: `The visitor's favourites as the browser keeps them now (replaces the stored list; at most ${MAX_FAVOURITES}).`,
    }),
    viewed: ids(20, "viewed listings")
      .optional()
      .meta({ description: "Listing pages the visitor opened since the last sync: kept only once the visitor has identified (a lead)." }),
    compared: ids(MAX_COMPARED, "compared listings").optional().meta({ description: "Listings the visitor compared side by side." }),
  })
  .meta({ id: "SyncFavourites" });

export const SyncFavouritesAnswerSchema = z
  .object({
    visitorId: z.uuid(),
    listingIds: z.array(z.uuid()).meta({ description: "The stored favourites." }),
    identified: z.boolean().meta({ description: "The visitor became a lead: its favourites, comparisons and views reach that deal." }),
  })
  .meta({ id: "SyncedFavourites" });

/**
 * `POST /api/sites/{siteId}/visitors/{visitorId}/favourites`: a browser's favourites (and what it
 * compared or viewed) for one site. Every id must be a listing of the site's tenant that the site
 * shows now (a partner's network listing, another tenant's, an unpublished one: 400 naming the
 * field and item). The favourites stored are replaced by the list sent; comparisons are added;
 * views are kept only for a visitor who identified. When the visitor is linked to a deal, what
 * is new reaches the deal's interests in the same transaction. The visitor id opens nothing but
 * its own list, and the answer holds only the ids sent.
 */
export async function syncFavourites(db: Db, site: SiteRow, visitorIdRaw: string, input: unknown) {
  if (!UUID_PATTERN.test(visitorIdRaw)) throw invalid(`path segment \`visitorId\`: '${visitorIdRaw.slice(0, 60)}' is not a UUID.`, "invalid_parameter");
  const visitorId = visitorIdRaw.toLowerCase();
  const body = SyncFavouritesBody.parse(storableJson(input));
  const fields = { listingIds: body.listingIds, viewed: body.viewed ?? [], compared: body.compared ?? [] };
  const all = [...new Set(Object.values(fields).flat())];
  const visible = new Set((await findSiteListings(db, site, all, { ownOnly: true })).map((h) => String(h.document.id)));
  for (const [field, list] of Object.entries(fields)) {
    const i = list.findIndex((id) => !visible.has(id));
    if (i >= 0) throw invalid(`body field \`${field}.${i}\`: ${list[i]} is not a listing this site shows.`, "listing_not_available");
  }
  return inTenantTransaction(db, site.tenantId, async (tx) => {
    const [visitor] = rowsOf<{ id: string; deal_id: string | null }>(
      await tx.execute(sql`
        insert into site_visitors (tenant_id, site_id, visitor_id) values (${site.tenantId}::uuid, ${site.id}::uuid, ${visitorId}::uuid)
        on conflict (site_id, visitor_id) do update set updated_at = now()
        returning id, deal_id`),
    );
    const arr = (list: string[]) => sql`${`{${list.join(",")}}`}::uuid[]`;
    // The browser's list is the truth: hearts taken off are dropped (the deal keeps what it was told).
    await tx.execute(sql`delete from visitor_listings where visitor_row_id = ${visitor.id}::uuid and kind = 'favourite'
      and not (listing_id = any(${arr(fields.listingIds)}))`);
    const add = async (list: string[], kind: string) => {
      if (!list.length) return;
      await tx.execute(sql`
        insert into visitor_listings (tenant_id, visitor_row_id, listing_id, kind)
        select ${site.tenantId}::uuid, ${visitor.id}::uuid, unnest(${arr(list)}), ${kind}
        on conflict (visitor_row_id, listing_id, kind) do nothing`);
    };
    await add(fields.listingIds, "favourite");
    await add(fields.compared, "compared");
    // Views of an anonymous visitor are not kept: browsing is nobody's business until they write to the agency.
    if (visitor.deal_id) await add(fields.viewed, "viewed");
    if (visitor.deal_id) await copyInterests(tx, site.tenantId, visitor.id, visitor.deal_id);
    return { visitorId, listingIds: fields.listingIds, identified: visitor.deal_id !== null };
  });
}
