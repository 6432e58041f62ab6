import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf } from "../../db/rows";
import type { MemberCtx } from "../context/verb-context";
import { pageSchema, PageQuery, type Page } from "../schemas/paging";
import { DealSavedSearchSchema, savedSearchSummary } from "./of-deal";

export const ListSavedSearchesQuery = z
  .strictObject({
    ...PageQuery,
    status: z.enum(["pending", "active", "unsubscribed"]).optional(),
    dealId: z.uuid().optional().meta({ description: "Only the searches that became this deal's lead." }),
    siteId: z.uuid().optional(),
  })
  .meta({ id: "ListSavedSearchesQuery" });

export const SavedSearchSchema = DealSavedSearchSchema.extend({
  contact: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
  locale: z.enum(["pt-BR", "en", "es"]),
  dealId: z.uuid().nullable().meta({ description: "The deal of the lead the confirmed search became (null before confirmation or processing)." }),
  consent: z.object({ at: z.iso.datetime(), source: z.record(z.string(), z.string()) }).meta({ description: "LGPD consent: when and where it was given." }),
  confirmedAt: z.iso.datetime().nullable(),
  unsubscribedAt: z.iso.datetime().nullable(),
  lastAlertAt: z.iso.datetime().nullable(),
  alertsSent: z.number().int().meta({ description: "Listings sent to this search so far." }),
}).meta({ id: "SavedSearch" });

export const SavedSearchPageSchema = pageSchema(SavedSearchSchema, "SavedSearchPage");
type Item = z.infer<typeof SavedSearchSchema>;

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/**
 * `GET /api/v1/crm/saved-searches`: the tenant's saved searches, newest first. A restricted key
 * (a broker) sees those whose deal it may see, as on the deals list.
 */
export async function listSavedSearches(ctx: MemberCtx, q: z.output<typeof ListSavedSearchesQuery>): Promise<Page<Item>> {
  const a = ctx.actor;
  const where = [
    sql`s.tenant_id = ${ctx.tenantId}::uuid`,
    q.status ? sql`s.status = ${q.status}` : undefined,
    q.siteId ? sql`s.site_id = ${q.siteId}::uuid` : undefined,
    q.dealId ? sql`l.deal_ids ->> 0 = ${q.dealId}` : undefined,
    a.access === "broad"
      ? undefined
      : sql`exists (select 1 from deals d where d.tenant_id = s.tenant_id and d.id::text = l.deal_ids ->> 0
                    and (d.assigned_to_id = ${a.userId}::uuid or d.created_by_id = ${a.userId}::uuid))`,
  ].filter((x) => x !== undefined);
  const cond = sql.join(where, sql` and `);
  const from = sql`from saved_searches s left join inbound_leads l on l.id = s.inbound_lead_id and l.tenant_id = s.tenant_id where ${cond}`;
  const [rows, totals] = await Promise.all([
    ctx.db.execute(sql`
      select s.*, l.deal_ids ->> 0 as deal_id,
        (select count(*)::int from saved_search_hits h where h.saved_search_id = s.id and h.sent_at is not null) as alerts_sent
      ${from} order by s.created_at desc, s.id limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`),
    ctx.db.execute(sql`select count(*)::int as total ${from}`),
  ]);
  const items = rowsOf<Record<string, unknown>>(rows).map(
    (r): Item => ({
      ...savedSearchSummary(r),
      contact: { name: (r.contact_name as string) ?? null, email: (r.email as string) ?? null, phone: (r.phone as string) ?? null },
      locale: r.locale as Item["locale"],
      dealId: (r.deal_id as string) ?? null,
      consent: { at: iso(r.consent_at)!, source: r.consent_source as Record<string, string> },
      confirmedAt: iso(r.confirmed_at),
      unsubscribedAt: iso(r.unsubscribed_at),
      lastAlertAt: iso(r.last_alert_at),
      alertsSent: Number(r.alerts_sent ?? 0),
    }),
  );
  return { items, total: Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0), page: q.page, pageSize: q.pageSize };
}
