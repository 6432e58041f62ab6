import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { SavedFiltersSchema } from "./filters";

/** What a deal's buyer asked to be told about: a saved search that became the deal's lead. */
export const DealSavedSearchSchema = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    filters: SavedFiltersSchema,
    channel: z.enum(["email", "whatsapp"]),
    frequency: z.enum(["instant", "daily"]),
    status: z.enum(["pending", "active", "unsubscribed"]).meta({ description: "`unsubscribed`: the visitor withdrew consent; no alert goes out." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "DealSavedSearch" });

export type DealSavedSearch = z.infer<typeof DealSavedSearchSchema>;

/**
 * The saved searches whose lead became this deal, oldest first (the caller has checked the deal is
 * visible to it). Read from the leads saved searches made (`saved-search:{id}`, a partial index of
 * the tenant and the lead's deal), then the searches by their lead: no scan of the tenant's searches.
 */
export async function savedSearchesOfDeal(db: DbOrTx, tenantId: string, dealId: string): Promise<DealSavedSearch[]> {
  const res = await db.execute(sql`
    select s.id, s.site_id, s.filters, s.channel, s.frequency, s.status, s.created_at
    from inbound_leads l join saved_searches s on s.inbound_lead_id = l.id and s.tenant_id = l.tenant_id
    where l.tenant_id = ${tenantId}::uuid and l.origin_lead_id like 'saved-search:%' and (l.deal_ids ->> 0) = ${dealId}
    order by s.created_at, s.id`);
  return rowsOf<Record<string, unknown>>(res).map(savedSearchSummary);
}

/** The fields every member's view of a saved search shows, from its row (`saved_searches` columns). */
export function savedSearchSummary(r: Record<string, unknown>): DealSavedSearch {
  return {
    id: r.id as string,
    siteId: r.site_id as string,
    filters: r.filters as DealSavedSearch["filters"],
    channel: r.channel as DealSavedSearch["channel"],
    frequency: r.frequency as DealSavedSearch["frequency"],
    status: r.status as DealSavedSearch["status"],
    createdAt: new Date(r.created_at as string).toISOString(),
  };
}
