import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { NO_MAX_PRICE, sites, type SiteRow } from "../../db/schema";
import { afterCommit, inTransaction, settleAll } from "../../db/transaction";
import { config } from "../config";
import { sendJobEvent } from "../jobs/dispatch";
import { siteCatalogue, type SiteCatalogue } from "../sites/site-catalogue";
import { findSiteListing, siteListingSql } from "../sites/find-site-listing";
import { tenantSettingsOf } from "../tenants/load-tenant";
import { isPriceHidden, withoutPrice } from "../search/price-visibility";
import { finiteNumber, foldText, matchesFilters, type MatchDoc, type SavedFilters } from "./filters";
import { savedSearchMessagesDue } from "./queue";

/** What a listing's events since the cursor say: it appeared (created, published, back on air) and/or its price fell. */
type Change = { appeared: boolean; priceFell: boolean };

type ListingPayload = { stage?: string; visibility?: string; price?: string | null };

const priceOf = (l: ListingPayload | null | undefined) => (l?.price == null ? null : Number(l.price));
const onAir = (l: ListingPayload | null | undefined, activeStage: string) => l?.visibility === "public" && l?.stage === activeStage;

/**
 * A tenant's listing events in commit order, folded per listing. A change that neither brought the
 * listing on air nor lowered its price (a new description, photos) alerts nobody: a search is told
 * about listings that are new to it, not about every edit of a listing it may already know.
 */
export function changesOf(
  rows: { eventName: string; entityId: string; data: Record<string, unknown>; old: Record<string, unknown> | null }[],
  activeStage: string,
) {
  const out = new Map<string, Change>();
  for (const e of rows) {
    if (e.eventName !== "listing.created" && e.eventName !== "listing.updated") continue;
    const now = (e.data as { listing?: ListingPayload }).listing;
    const before = e.old as ListingPayload | null;
    const c = out.get(e.entityId) ?? { appeared: false, priceFell: false };
    if (e.eventName === "listing.created" || (!onAir(before, activeStage) && onAir(now, activeStage))) c.appeared = true;
    const [p0, p1] = [priceOf(before), priceOf(now)];
    if (e.eventName === "listing.updated" && p0 !== null && p1 !== null && p1 < p0) c.priceFell = true;
    if (c.appeared || c.priceFell) out.set(e.entityId, c);
  }
  return out;
}

/**
 * A candidate search; `filters` only when it has a filter the index cannot check (words, area):
 * every other filter was an index condition, so the rest need no second check in code (and their
 * JSON is not read). `candidates.test.ts` proves the index's set equals the full filters' set.
 */
type Candidate = { id: string; site_id: string; filters: SavedFilters | null };

/**
 * A row of the batch statement: the tenant's settings and the number of events read on each, then
 * one listing event (all null when none is new) with the listing's search document as it is now.
 */
type BatchRow = {
  settings: unknown;
  read: number;
  seq: string | null;
  eventName: string;
  entityId: string;
  data: Record<string, unknown>;
  old: Record<string, unknown> | null;
  doc: (MatchDoc & { visibility: string | null; stage: string | null; priceVisibility: string | null }) | null;
};

/**
 * The active searches whose selective columns admit the listing: one scan of
 * `saved_searches_candidates_idx` over its 2 × 2 × 2 × 2 equality ranges of the tenant (type, city,
 * neighbourhood, property type: each the listing's value or '' for "any"), with the price bounds and
 * bedrooms checked on the index entries, so only searches that pass all of them are read from the
 * table (the candidates of a listing are about its hits, not every search of its city). The
 * filters the index cannot check (area, words) are returned for the caller to check in code.
 */
export async function candidateSearches(db: DbOrTx, tenantId: string, doc: MatchDoc): Promise<Candidate[]> {
  return rowsOf<Candidate>(
    await db.execute(sql`select id, site_id, ${FILTERS_TO_CHECK} as filters from saved_searches where ${candidateWhere(tenantId, doc)}`),
  );
}

/** A candidate's filters when it has one the index cannot check (words, area), else null. */
const FILTERS_TO_CHECK = sql`case when filters ?| array['q', 'minArea', 'maxArea'] then filters end`;

/** The conditions of `candidateSearches` (see there), for the statements that select candidates. */
function candidateWhere(tenantId: string, doc: MatchDoc) {
  const type = typeof doc.listingType === "string" ? doc.listingType : "";
  const city = typeof doc.location_city === "string" ? foldText(doc.location_city) : "";
  const hood = typeof doc.location_neighborhood === "string" ? foldText(doc.location_neighborhood) : "";
  const ptype = typeof doc.propertyType === "string" ? doc.propertyType : "";
  const price = docPrice(doc);
  const bedrooms = typeof doc.bedrooms === "number" && Number.isFinite(doc.bedrooms) ? Math.floor(doc.bedrooms) : 0;
  // The index's own expressions (the constant inlined, so the planner recognises them). A listing
  // without a price passes only searches without bounds.
  const noMax = sql.raw(String(NO_MAX_PRICE));
  const priceOk =
    price === null
      ? sql`coalesce(max_price, ${noMax}) >= ${noMax} and coalesce(min_price, 0) <= 0`
      : sql`coalesce(max_price, ${noMax}) >= ${Math.round(price)} and coalesce(min_price, 0) <= ${Math.round(price)}`;
  return sql`tenant_id = ${tenantId}::uuid and status = 'active'
      and listing_type in ('', ${type}) and city_key in ('', ${city}) and hood_key in ('', ${hood}) and property_type in ('', ${ptype})
      and ${priceOk} and min_bedrooms <= ${bedrooms}`;
}

const docPrice = (doc: MatchDoc) => finiteNumber(doc.price);

/**
 * Records the listing as a hit of every search it matches now: a first hit (the listing is new to
 * the search), or a lower price than the one last recorded (a price that fell again). A hit at the
 * same or a higher price changes nothing, so a listing is never sent twice to a search unless its
 * price fell. One statement finds the active sites showing the listing (each site's own search
 * predicates, as `findSiteListing` applies them), selects the candidates of those sites and writes
 * the hits of those the index checked entirely (most searches: they never travel to us), returning
 * only the few with words or an area bound. Those are checked here on the document as their site
 * shows it (read then, for their sites only) and written by a second statement.
 * Returns how many hits became due.
 */
async function recordHits(tx: Tx, tenantId: string, listingId: string, change: Change, doc: MatchDoc, siteRows: SiteCache) {
  // The hits' price as text (numeric): the listing's own, whichever site shows it.
  const price = docPrice(doc)?.toFixed(2) ?? null;
  const shown = sql.join(
    siteRows.map((s) => sql`select ${s.site.id}::uuid where exists (${siteListingSql(s.site, listingId, s.catalogue)})`),
    sql` union all `,
  );
  const res = rowsOf<{ due: number | null } & Candidate>(
    await tx.execute(sql`
      with shown(site_id) as (${shown}), cand as (
        select id, site_id, ${FILTERS_TO_CHECK} as filters from saved_searches
        where ${candidateWhere(tenantId, doc)} and site_id in (select site_id from shown)
      ), m(id, price) as (select id, ${price}::numeric from cand where filters is null) ${writeHits(listingId, tenantId, change)}
      select ${HITS_WRITTEN} as due, null::uuid as id, null::uuid as site_id, null::jsonb as filters
      union all
      select null, id, site_id, filters from cand where filters is not null`),
  );
  // The count row is the one without an id (a union's rows come in no promised order).
  let due = res.find((r) => r.id === null)?.due ?? 0;
  const toCheck = res.flatMap((r) => (r.id !== null && r.filters !== null ? [{ id: r.id, site_id: r.site_id, filters: r.filters }] : []));
  if (!toCheck.length) return due;
  // Words and area, checked on the document as the search's site shows it.
  const siteDocs = await docsBySite(
    tx,
    listingId,
    siteRows.filter((s) => toCheck.some((c) => c.site_id === s.site.id)),
  );
  const more = toCheck.filter((c) => {
    const siteDoc = siteDocs.get(c.site_id);
    return siteDoc !== undefined && matchesFilters(siteDoc, c.filters);
  });
  if (more.length) {
    const ids = sql`${`{${more.map((c) => c.id).join(",")}}`}::uuid[]`;
    const written = await tx.execute(sql`
      with m(id, price) as (select unnest(${ids}), ${price}::numeric) ${writeHits(listingId, tenantId, change)}
      select ${HITS_WRITTEN} as due`);
    due += rowsOf<{ due: number }>(written)[0].due;
  }
  return due;
}

/**
 * CTEs that write the hits of the (search id, price) rows of a CTE `m` before them (see
 * `recordHits` for the rule): `ins` the searches new to the listing, `upd` (after a price fall)
 * those it had reached at a higher price; `HITS_WRITTEN` counts both. The listing's hits so far
 * (`prev`) are read once, as one range of `saved_search_hits_listing_idx` (empty for a listing new
 * to every search, the usual case), instead of a primary-key probe per candidate for the update
 * and another for the insert: those probes were a third of the statement at 600 hits. A plain
 * insert of the pairs not there yet, not `on conflict do update`: its speculative insertion cost a
 * fifth more per hit (and twice the WAL), and the matcher is the only writer of hits, one run per
 * tenant at a time (the cursor's row lock), so no other insert can race it.
 */
function writeHits(listingId: string, tenantId: string, change: Change) {
  const listing = sql`${listingId}::uuid`;
  const upd = change.priceFell
    ? sql`update saved_search_hits h set price = m.price, reason = 'price_drop', matched_at = now(), sent_at = null
        from m join prev p on p.id = m.id where m.price < p.price and h.saved_search_id = m.id and h.listing_id = ${listing} returning 1`
    : sql`select 1 where false`;
  return sql`, prev as materialized (select saved_search_id as id, price from saved_search_hits where listing_id = ${listing}),
    upd as (${upd}), ins as (
    insert into saved_search_hits (saved_search_id, listing_id, tenant_id, price, reason)
    select m.id, ${listing}, ${tenantId}::uuid, m.price, ${change.appeared ? "new" : "price_drop"} from m
    where not exists (select 1 from prev p where p.id = m.id)
    returning 1)`;
}

const HITS_WRITTEN = sql`((select count(*) from upd) + (select count(*) from ins))::int`;

/** The tenant's active sites and their catalogue predicates, read once per batch rather than once per change. */
type SiteCache = { site: SiteRow; catalogue: SiteCatalogue }[];

/** The listing's document as each of these sites shows it (absent: not on that site now). */
async function docsBySite(tx: Tx, listingId: string, siteRows: SiteCache) {
  const found = await settleAll(siteRows.map((s) => findSiteListing(tx, s.site, listingId, s.catalogue)));
  const out = new Map<string, MatchDoc>();
  for (const [i, hit] of found.entries()) if (hit && !hit.isNetworkListing) out.set(siteRows[i].site.id, hit.document);
  return out;
}

/**
 * Reads one batch of a tenant's outbox after its cursor (events of one tenant are numbered in
 * commit order: its writes hold the tenant's row lock) and records the hits of the listing changes
 * in it, moving the cursor in the same transaction: a crash loses both or neither, so the next run
 * reads the batch again and writes its hits once. Returns the events read (0: caught up or taken by another run).
 */
export async function matchTenantBatch(db: Db, tenantId: string, limit = 1000): Promise<{ read: number; due: number }> {
  return inTransaction(db, async (tx) => {
    // The transaction's settings go first, in the same round trip as the reads (pipelined), so
    // they apply to the planning of every statement after them:
    // - not waiting for the WAL flush saves the commit's fsync (the hits commit with the cursor,
    //   so a commit lost in a crash loses both and the next run reads the batch again); any later
    //   synchronous commit (the alert that claims these hits) flushes it;
    // - every access of this transaction is an index range (the cursor, the outbox after it, a
    //   search's candidates, a listing's hits), so seq scans are off: statistics that still
    //   describe a small or empty hits table (a new tenant, a bulk delete) made the planner scan
    //   the whole table once per candidate (118 ms for 647 hits);
    // - that makes each statement's cached generic plan safe to reuse, which saves the planning
    //   of the batch statement (0.9 ms) and of the hits statement (1.1 ms) on every change.
    //   (Only with prepared statements: without them, behind PgBouncer, nothing is cached and
    //   a generic plan would only lose the parameters' values, so plans stay custom.)
    // These settings reach every statement of the transaction (the sites' reads too) and end with it.
    // Then one statement claims the cursor, reads the batch after it with the tenant's settings
    // and each listing's search document, and moves the cursor past the batch: its hits commit
    // with it, so an error below (rolling back) makes the next run read the batch again. `moved`
    // updates only a row `c` locked (none when another run holds it) and never backwards.
    // The tenant's active sites are read beside it.
    const [, batchRes, activeSites] = await settleAll([
      tx.execute(sql`select set_config('synchronous_commit', 'off', true), set_config('enable_seqscan', 'off', true),
        set_config('plan_cache_mode', ${GENERIC_PLANS()}, true)`),
      tx.execute(sql`
        with c as (
          select c.tenant_id, c.last_seq, t.settings from saved_search_cursors c
          join tenants t on t.id = c.tenant_id
          where c.tenant_id = ${tenantId}::uuid
          for update of c skip locked
        ), e as (
          select ev.* from c, lateral (
            select seq, event_name, entity_id,
              case when event_name in ('listing.created', 'listing.updated') then data end as data,
              case when event_name in ('listing.created', 'listing.updated') then old end as old
            from events
            where tenant_id = c.tenant_id and seq > c.last_seq order by seq limit ${limit}
          ) ev
        ), moved as (
          update saved_search_cursors s set last_seq = m.seq, updated_at = now()
          from (select max(seq) as seq from e) m
          where s.tenant_id = ${tenantId}::uuid and m.seq is not null and s.last_seq < m.seq
          returning 1
        )
        select c.settings,
          (select count(*) from e)::int as read, e.seq::text as seq, e.event_name as "eventName", e.entity_id as "entityId", e.data, e.old,
          case when d.listing_id is not null then json_build_object('visibility', d.visibility, 'stage', d.stage,
            'listingType', d.listing_type, 'propertyType', d.property_type, 'price', d.price, 'priceVisibility', d.price_visibility, 'bedrooms', d.bedrooms,
            'location_city', d.location_city, 'location_neighborhood', d.location_neighborhood) end as doc
        from c
        -- Only the listing events come back, with their payloads: a tenant whose outbox is mostly
        -- messages (a web chat's thousands an hour) moves its cursor past them without shipping them.
        left join e on e.event_name in ('listing.created', 'listing.updated')
        -- (The CASE keeps other entities' ids, which need not be uuids, uncast whatever the plan.)
        left join search_index d on d.tenant_id = c.tenant_id
          and d.listing_id = case when e.event_name in ('listing.created', 'listing.updated') then e.entity_id::uuid end
        order by e.seq`),
      tx
        .select()
        .from(sites)
        .where(and(eq(sites.tenantId, tenantId), eq(sites.active, true))),
    ] as const);
    const batch = rowsOf<BatchRow>(batchRes);
    // `read` counts every event the cursor moved past; `rows` are its listing events.
    const read = batch[0]?.read ?? 0;
    const rows = batch.filter((r): r is BatchRow & { seq: string } => r.seq !== null);
    if (!rows.length) return { read, due: 0 };
    const settings = tenantSettingsOf(tenantId, batch[0].settings);
    const activeStage = settings.listingWorkflow.activeStageId;
    let due = 0;
    const siteRows: SiteCache = await settleAll(activeSites.map(async (site) => ({ site, catalogue: await siteCatalogue(tx, site, settings) })));
    // The listing's document as the batch read it, only while it is public and on air (the only state that alerts).
    // (Rows of the listing's other events, such as a stage change, carry no document.)
    const docs = new Map(rows.flatMap((r) => (r.doc ? [[r.entityId, r.doc] as const] : [])));
    for (const [listingId, change] of changesOf(rows, activeStage)) {
      const doc = docs.get(listingId);
      if (doc?.visibility !== "public" || doc.stage !== activeStage) continue;
      // A private price is no price to a visitor (lib/search/price-visibility.ts): it matches only
      // searches without price bounds, and its falls alert nobody, so no alert narrows it down.
      const hidden = isPriceHidden({ kind: "all" }, tenantId, doc.priceVisibility);
      const seen = hidden ? { ...change, priceFell: false } : change;
      if (!seen.appeared && !seen.priceFell) continue;
      if (siteRows.length) due += await recordHits(tx, tenantId, listingId, seen, hidden ? withoutPrice(doc) : doc, siteRows);
    }
    if (due)
      afterCommit(
        tx,
        "saved-searches:messages-due",
        () => null,
        () => sendJobEvent(savedSearchMessagesDue, {}),
      );
    return { read, due };
  });
}

/** The plan cache mode of the matcher's transaction (see `matchTenantBatch`). */
const GENERIC_PLANS = () => (config().DATABASE_PREPARED_STATEMENTS === "on" ? "force_generic_plan" : "force_custom_plan");

/** Tenants whose outbox moved past their cursor. */
export async function tenantsBehind(db: DbOrTx): Promise<string[]> {
  const res = await db.execute(sql`
    select c.tenant_id from saved_search_cursors c
    where exists (select 1 from events e where e.tenant_id = c.tenant_id and e.seq > c.last_seq)`);
  return rowsOf<{ tenant_id: string }>(res).map((r) => r.tenant_id);
}

/** One pass of the matcher: every tenant behind, one batch each. Returns the events read. */
export async function matchSavedSearches(db: Db): Promise<number> {
  let read = 0;
  for (const tenantId of await tenantsBehind(db)) read += (await matchTenantBatch(db, tenantId)).read;
  return read;
}
