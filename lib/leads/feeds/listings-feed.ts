import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import type { MarketingChannelInstanceRow } from "../../../db/schema";
import { FILTER_SCHEMA } from "../../search/fields";
import { docColumns, documentFromRow } from "../../search/stored-document";
import { compileFilter, parseFilter, ParseError, toDomainError } from "../../search/filter";
import { typedFilters } from "../../search/listing-search";
import { scopeSql } from "../../search/postgres/scope-sql";
import { loadTenant } from "../../tenants/load-tenant";
import { toPublicDocument } from "../../sites/public-document";
import { invalid } from "../../errors/domain-errors";
import { FeedCriteriaParser } from "./feed-criteria";

export const FeedQuery = z.strictObject({
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000, "must be at most 1000").default(100),
  format: z.enum(["json", "vrsync"]).default("json"),
});

export type FeedItem = Record<string, unknown> & { slot: string };

const encodeCursor = (id: string) => Buffer.from(id).toString("base64url");
function decodeCursor(cursor: string | undefined): string | null {
  if (!cursor) return null;
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[0-9a-f-]{36}$/.test(id)) throw invalid("query parameter `cursor`: is not a cursor this feed gave; start again without it.");
  return id;
}

/**
 * The channel's listings feed: the tenant's public listings in its active stage that match the
 * channel's `feedCriteria`, each as the public detail document (the sites' allow-list: no owner
 * data, coordinates rounded, private prices as "Consulte") plus its portal `slot`. Paged by a
 * cursor over listing ids, so a portal walking the feed never skips or repeats a listing while
 * others change.
 */
/** The JSON answer of `listingsFeed`: public detail documents with their portal `slot`. */
export const ListingsFeedPageSchema = z.object({ items: z.array(z.record(z.string(), z.unknown())), nextCursor: z.string().nullable() });

export async function listingsFeed(
  db: DbOrTx,
  channel: MarketingChannelInstanceRow,
  q: z.infer<typeof FeedQuery>,
): Promise<z.infer<typeof ListingsFeedPageSchema> & { items: FeedItem[] }> {
  const { settings } = await loadTenant(db, channel.tenantId);
  const criteria = FeedCriteriaParser.parse(channel.feedCriteria);
  const filters = typedFilters(criteria, settings.propertyTypes);
  if (criteria.filter?.trim()) {
    try {
      const ast = parseFilter(criteria.filter, FILTER_SCHEMA);
      if (ast) filters.push(ast);
    } catch (e) {
      if (e instanceof ParseError) throw toDomainError(e);
      throw e;
    }
  }
  const scope = {
    tenantId: channel.tenantId,
    access: { kind: "all" as const },
    networkIds: [],
    publicOnly: { activeStage: settings.listingWorkflow.activeStageId },
  };
  const after = decodeCursor(q.cursor);
  const where = [scopeSql(scope), ...filters.map((f) => compileFilter(f, FILTER_SCHEMA)), after ? sql`d.listing_id > ${after}::uuid` : sql`true`];
  const res = await db.execute(sql`
    select ${docColumns("d")}, coalesce(s.slot, 'standard') as slot
    from search_index d
    left join channel_listing_slots s on s.channel_instance_id = ${channel.id}::uuid and s.listing_id = d.listing_id
    where ${sql.join(where, sql` AND `)}
    order by d.listing_id limit ${q.limit + 1}`);
  const rows = rowsOf<Record<string, unknown> & { listing_id: string; slot: string }>(res);
  const page = rows.slice(0, q.limit);
  const items: FeedItem[] = page.map((r) => ({ ...toPublicDocument(documentFromRow(r), { detail: true }), slot: r.slot }));
  return { items, nextCursor: rows.length > q.limit ? encodeCursor(page[page.length - 1].listing_id) : null };
}
