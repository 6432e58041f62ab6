import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { invalid } from "../errors/domain-errors";
import { VisitorIdSchema } from "./visitor-id";

export type AttachVisitorInput = { tenantId: string; siteId: string; visitorId: string; dealId: string };

/**
 * The visitor identified (lead form, web chat, saved search, booking) and became `dealId`: the
 * visitor is linked to that deal (the latest identification wins, so later syncs add to the deal
 * the broker works now) and everything the visitor did so far (favourites, comparisons, views) is
 * copied onto the deal's interests once (one row per listing and kind, first time kept).
 *
 * Call it in the transaction that writes the deal (or links the visitor to it). The site and the
 * deal must be the tenant's: the statement finds nothing otherwise and this throws. A visitor the
 * service has never seen (no favourite synced yet) is recorded, so its later syncs reach the deal.
 * Returns how many interests the deal gained.
 */
export async function attachVisitorInterests(tx: DbOrTx, input: AttachVisitorInput): Promise<number> {
  const visitorId = VisitorIdSchema.parse(input.visitorId);
  const linked = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into site_visitors (tenant_id, site_id, visitor_id, deal_id)
      select s.tenant_id, s.id, ${visitorId}::uuid, d.id
        from sites s join deals d on d.tenant_id = s.tenant_id and d.id = ${input.dealId}::uuid
       where s.id = ${input.siteId}::uuid and s.tenant_id = ${input.tenantId}::uuid
      on conflict (site_id, visitor_id) do update set deal_id = excluded.deal_id, updated_at = now()
      returning id`),
  );
  if (!linked.length) throw invalid("The site or the deal is not this tenant's: the visitor cannot be linked.", "visitor_link_invalid");
  return copyInterests(tx, input.tenantId, linked[0].id, input.dealId);
}

/** The visitor's listings onto the deal's interests (existing ones keep their first time). */
export async function copyInterests(tx: DbOrTx, tenantId: string, visitorRowId: string, dealId: string): Promise<number> {
  const added = rowsOf<{ listing_id: string }>(
    await tx.execute(sql`
      insert into deal_interests (tenant_id, deal_id, listing_id, kind, at)
      select vl.tenant_id, ${dealId}::uuid, vl.listing_id, vl.kind, vl.at
        from visitor_listings vl
       where vl.visitor_row_id = ${visitorRowId}::uuid and vl.tenant_id = ${tenantId}::uuid
      on conflict (deal_id, listing_id, kind) do nothing
      returning listing_id`),
  );
  return added.length;
}
