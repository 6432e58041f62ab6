import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { savedSearches, sites, type SavedSearchRow, type SiteRow } from "../../db/schema";
import { config } from "../config";
import { logger } from "../log/logger";
import { findSiteListings } from "../sites/find-site-listing";
import { siteCatalogue, type SiteCatalogue } from "../sites/site-catalogue";
import { toPublicDocument } from "../sites/public-document";
import { stateParams } from "../sites/render/catalogue-query";
import { tenantMailer, type TenantMailer } from "../mail/send-tenant-mail";
import { loadTenant } from "../tenants/load-tenant";
import { describeFilters } from "./describe";
import type { SavedFilters } from "./filters";
import { alertLink } from "./links";
import { alertMessage, confirmationMessage, type AlertItem, type Brand } from "./render-messages";
import { sendToVisitor } from "./send";
import { alertTexts, type AlertT } from "./texts";

/** A message that failed this many times is given up (the search keeps `last_error`). */
const MAX_FAILURES = 5;

const brandOf = async (db: Db, tenantId: string): Promise<Brand> => {
  const { settings } = await loadTenant(db, tenantId);
  return { name: settings.branding.name, primaryColor: settings.branding.primaryColor };
};

async function noteFailure(db: Db, row: SavedSearchRow, err: unknown, undo: Partial<SavedSearchRow>) {
  const message = err instanceof Error ? err.message : String(err);
  logger().warn({ savedSearch: row.id, err: message }, "saved-search message not sent");
  await db
    .update(savedSearches)
    .set({ ...undo, failures: sql`${savedSearches.failures} + 1`, lastError: message.slice(0, 500) })
    .where(and(eq(savedSearches.id, row.id), eq(savedSearches.tenantId, row.tenantId)));
}

/**
 * Confirmation messages of new searches. Each is claimed by stamping `confirmation_sent_at` before
 * the send (a second runner skips it); a failed send clears the stamp for a later retry.
 */
export async function sendConfirmations(db: Db, limit = 20): Promise<number> {
  const claimed = rowsOf<{ id: string }>(
    await db.execute(sql`
      update saved_searches set confirmation_sent_at = now()
      where id in (select id from saved_searches where status = 'pending' and confirmation_sent_at is null and failures < ${MAX_FAILURES}
                   order by created_at limit ${limit} for update skip locked)
      returning id`),
  );
  for (const { id } of claimed) {
    const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
    const t = alertTexts(row.locale);
    try {
      const msg = confirmationMessage(
        t,
        row.locale,
        await brandOf(db, row.tenantId),
        describeFilters(row.filters as SavedFilters, t),
        alertLink(row, "confirm"),
      );
      await sendToVisitor(db, row, msg, { key: `saved-search-confirm:${row.id}` });
      if (row.failures) await db.update(savedSearches).set({ failures: 0, lastError: null }).where(eq(savedSearches.id, row.id));
    } catch (err) {
      await noteFailure(db, row, err, { confirmationSentAt: null });
    }
  }
  return claimed.length;
}

const brl = (v: number) => `R$ ${Math.round(v).toLocaleString("pt-BR")}`;

function itemOf(row: SavedSearchRow, doc: Record<string, unknown>, reason: "new" | "price_drop", t: AlertT): AlertItem {
  const d = toPublicDocument(doc, { detail: false });
  const localTitle = row.locale === "en" ? d.title_en : row.locale === "es" ? d.title_es : "";
  const prefix = row.locale === "en" ? "/en" : row.locale === "es" ? "/es" : "";
  const origin = new URL(row.linkBase).origin;
  const photo = typeof d.primaryImageUrl === "string" ? new URL(d.primaryImageUrl, origin).toString() : null;
  const facts = [
    typeof d.bedrooms === "number" ? t("bedroomsMin", { n: d.bedrooms }).replace("+", "") : null,
    typeof d.totalArea === "number" ? `${d.totalArea} m²` : null,
    [d.location_neighborhood, d.location_city].filter((x) => typeof x === "string" && x).join(", ") || null,
  ].filter(Boolean);
  return {
    title: String((typeof localTitle === "string" && localTitle) || d.title || ""),
    url: `${row.linkBase}${prefix}/imovel/${encodeURIComponent(String(d.listingCode ?? d.id))}`,
    price: typeof d.price === "number" ? brl(d.price) : t("onRequest"),
    facts: facts.join(" · "),
    photo: photo && /^https?:/.test(photo) ? photo : null,
    reason,
  };
}

/** The catalogue address of a search's filters, for "see all results". */
function catalogueUrl(row: SavedSearchRow): string {
  const prefix = row.locale === "en" ? "/en" : row.locale === "es" ? "/es" : "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(stateParams({ ...(row.filters as SavedFilters), sort: "newest", page: 1 }))) if (v) q.set(k, v);
  return `${row.linkBase}${prefix}/imoveis${q.size ? `?${q}` : ""}`;
}

/**
 * Searches with hits waiting whose next alert is due: instant ones an hour after their last alert
 * (the cap: what matched meanwhile waits and goes in one message), daily ones once a day at their
 * tenant's digest hour (`savedSearchDigest` in the tenant's settings, each part defaulting to
 * `SAVED_SEARCH_DIGEST_HOUR` / `SAVED_SEARCH_TIMEZONE`). Claimed by moving `last_alert_at` to
 * `now`; a search's hits are marked sent once its message went out, and a failed send puts its
 * claim back.
 * `now` is the clock (tests pass theirs). Returns the searches claimed.
 */
export async function sendAlerts(db: Db, limit = 50, now = new Date()): Promise<number> {
  const c = config();
  const at = sql`${now.toISOString()}::timestamptz`;
  const claimed = rowsOf<{ id: string; previous: string | null }>(
    await db.execute(sql`
      with due as (
        select s.id, s.last_alert_at as previous from saved_searches s
        join tenants t on t.id = s.tenant_id
        cross join lateral (select coalesce(t.settings #>> '{savedSearchDigest,timeZone}', ${c.SAVED_SEARCH_TIMEZONE}) as tz,
                                   coalesce((t.settings #>> '{savedSearchDigest,hour}')::int, ${c.SAVED_SEARCH_DIGEST_HOUR}) as hour) z
        cross join lateral (select (date_trunc('day', ${at} at time zone z.tz) + make_interval(hours => z.hour)) at time zone z.tz as at) digest
        where s.status = 'active' and s.failures < ${MAX_FAILURES}
          -- Probes the due index (keyed by search, migration 0051) and stops at the LIMIT in a
          -- burst; grouping every waiting hit by the old index took 147 ms a claim.
          and s.id in (select saved_search_id from saved_search_hits where sent_at is null)
          and ((s.frequency = 'instant' and (s.last_alert_at is null or s.last_alert_at <= ${at} - interval '1 hour'))
            or (s.frequency = 'daily' and ${at} >= digest.at and (s.last_alert_at is null or s.last_alert_at < digest.at)))
        limit ${limit} for update of s skip locked
      )
      update saved_searches s set last_alert_at = ${at} from due where s.id = due.id
      returning s.id, due.previous`),
  );
  if (!claimed.length) return 0;
  // What the batch's alerts need, read once for all of them: the searches, their waiting hits,
  // and the hit listings as each search's site shows them now. A hit is marked sent only once its
  // message went out (alertOne), so a crash or a failure in between loses no alert; the claim
  // (`last_alert_at`) is what keeps a second runner off these searches meanwhile.
  const previous = new Map(claimed.map((c) => [c.id, c.previous]));
  const ids = sql`${`{${claimed.map((c) => c.id).join(",")}}`}::uuid[]`;
  try {
    const rows = await db.select().from(savedSearches).where(sql`${savedSearches.id} = any(${ids})`);
    const hits = rowsOf<Hit>(
      await db.execute(sql`
        select saved_search_id, listing_id, reason, matched_at::text as matched_at from saved_search_hits
        where saved_search_id = any(${ids}) and sent_at is null`),
    );
    const hitsOf = new Map<string, Hit[]>();
    for (const h of hits) {
      const list = hitsOf.get(h.saved_search_id);
      if (list) list.push(h);
      else hitsOf.set(h.saved_search_id, [h]);
    }
    const cache: AlertCache = { sites: new Map(), brands: new Map(), mailers: new Map() };
    const docs = await listingsBySite(db, cache, rows, hits);
    // Messages go out side by side (each waits mostly on the mail server or the gateway), each
    // with its own outcome: one failing send puts back only its own search's claim.
    // The hits of the messages that went out are marked sent together at the end (one statement,
    // one commit, not one each): a crash before that repeats those alerts, it never loses one.
    const done: Hit[] = [];
    const queue = [...rows];
    try {
      await Promise.all(
        Array.from({ length: Math.min(SEND_CONCURRENCY, queue.length) }, async () => {
          for (let row = queue.shift(); row; row = queue.shift())
            if (await alertOne(db, row, previous.get(row.id) ?? null, hitsOf.get(row.id) ?? [], docs.get(row.siteId), cache))
              done.push(...(hitsOf.get(row.id) ?? []));
        }),
      );
    } finally {
      await markSent(db, done);
    }
  } catch (err) {
    // The batch's reads failed (or a failure could not be recorded): every claim goes back, so
    // these searches are tried again on the next run instead of waiting out the hourly cap.
    await db.execute(sql`
      update saved_searches s set last_alert_at = c.previous
      from unnest(${ids}, ${`{${claimed.map((c) => (c.previous ? new Date(c.previous).toISOString() : "NULL")).join(",")}}`}::timestamptz[]) as c(id, previous)
      where s.id = c.id and s.last_alert_at = ${at}`);
    throw err;
  }
  return claimed.length;
}

/** Alerts sent at once by one runner (the service's SMTP connections are pooled: lib/mail). */
const SEND_CONCURRENCY = 16;

/** A waiting hit as read for an alert; `matched_at` (text: microseconds kept) tells whether it changed before it was marked sent. */
type Hit = { saved_search_id: string; listing_id: string; reason: "new" | "price_drop"; matched_at: string };

/** What one run reads once for all its alerts: each site with its catalogue predicates, each tenant's brand and mailer. */
type AlertCache = {
  sites: Map<string, Promise<{ site: SiteRow; catalogue: SiteCatalogue } | null>>;
  brands: Map<string, Promise<Brand>>;
  mailers: Map<string, Promise<TenantMailer>>;
};

function cachedSite(db: Db, cache: AlertCache, row: SavedSearchRow) {
  let hit = cache.sites.get(row.siteId);
  if (!hit) {
    hit = (async () => {
      const [site] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.id, row.siteId), eq(sites.tenantId, row.tenantId)));
      return site?.active ? { site, catalogue: await siteCatalogue(db, site) } : null;
    })();
    cache.sites.set(row.siteId, hit);
  }
  return hit;
}

function cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>) {
  let hit = map.get(key);
  if (!hit) map.set(key, (hit = load()));
  return hit;
}

/**
 * The batch's hit listings still on their searches' sites now, by site (a listing that left the
 * air since it matched is not sent): one query per site for the whole batch.
 */
async function listingsBySite(db: Db, cache: AlertCache, rows: SavedSearchRow[], hits: Hit[]) {
  const siteOf = new Map(rows.map((r) => [r.id, r]));
  const wanted = new Map<string, { row: SavedSearchRow; ids: Set<string> }>();
  for (const h of hits) {
    const row = siteOf.get(h.saved_search_id);
    if (!row) continue;
    const w = wanted.get(row.siteId) ?? { row, ids: new Set<string>() };
    w.ids.add(h.listing_id);
    wanted.set(row.siteId, w);
  }
  const out = new Map<string, Map<string, Record<string, unknown>>>();
  for (const [siteId, { row, ids }] of wanted) {
    const site = await cachedSite(db, cache, row);
    const found = site ? await findSiteListings(db, site.site, [...ids], { ownOnly: true, catalogue: site.catalogue }) : [];
    out.set(siteId, new Map(found.map((f) => [String(f.document.id), f.document])));
  }
  return out;
}

/**
 * One claimed search's alert from its waiting hits and its site's listings. True when its hits are
 * settled (the message went out, or every listing left the site): the caller marks them sent.
 * False when the send failed: its claim is put back and the failure counted.
 */
async function alertOne(
  db: Db,
  row: SavedSearchRow,
  previous: string | null,
  hits: Hit[],
  byId: Map<string, Record<string, unknown>> | undefined,
  cache: AlertCache,
) {
  try {
    const t = alertTexts(row.locale);
    const items = hits.flatMap((h) => {
      const doc = byId?.get(h.listing_id);
      return doc ? [itemOf(row, doc, h.reason, t)] : [];
    });
    if (!items.length) {
      // Every hit left the site since it matched: nothing to tell, and nothing to keep waiting.
      await db
        .update(savedSearches)
        .set({ lastAlertAt: previous ? new Date(previous) : null })
        .where(eq(savedSearches.id, row.id));
      return true;
    }
    const unsubscribe = alertLink(row, "unsubscribe");
    const brand = await cached(cache.brands, row.tenantId, () => brandOf(db, row.tenantId));
    const msg = alertMessage(t, row.locale, brand, describeFilters(row.filters as SavedFilters, t), items, {
      all: catalogueUrl(row),
      unsubscribe,
    });
    const mailer = row.channel === "email" ? await cached(cache.mailers, row.tenantId, () => tenantMailer(db, row.tenantId)) : undefined;
    await sendToVisitor(db, row, msg, { unsubscribeUrl: unsubscribe, key: `saved-search-alert:${row.id}:${Date.now()}`, mailer });
    if (row.failures) await db.update(savedSearches).set({ failures: 0, lastError: null }).where(eq(savedSearches.id, row.id));
    return true;
  } catch (err) {
    await noteFailure(db, row, err, { lastAlertAt: previous ? new Date(previous) : null });
    return false;
  }
}

/**
 * Marks hits sent, each only if it is still the one read: a price that fell again meanwhile (the
 * matcher moved `matched_at`) stays due for the next alert, with its new price.
 */
async function markSent(db: Db, hits: Hit[]) {
  if (!hits.length) return;
  const list = (f: (h: Hit) => string) => `{${hits.map(f).join(",")}}`;
  await db.execute(sql`
    update saved_search_hits h set sent_at = now()
    from unnest(${list((x) => x.saved_search_id)}::uuid[], ${list((x) => x.listing_id)}::uuid[], ${list((x) => `"${x.matched_at}"`)}::timestamptz[])
      as m(saved_search_id, listing_id, matched_at)
    where h.saved_search_id = m.saved_search_id and h.listing_id = m.listing_id and h.matched_at = m.matched_at and h.sent_at is null`);
}

/**
 * The messages job's work: confirmations, then due alerts, in batches while batches come back full
 * (a burst is sent at once; a failed send waits for the next run instead of being retried in a loop).
 * A run stops after `rounds` batches, so one run stays short; `more` then says batches were still
 * coming back full, and the job asks for the next run at once (a burst of 68,000 alerts would
 * otherwise wait for the schedule every 5,000).
 */
export async function sendSavedSearchMessages(db: Db, now?: () => Date, o: { rounds?: number; batch?: number } = {}): Promise<{ sent: number; more: boolean }> {
  const [rounds, batch] = [o.rounds ?? 100, o.batch ?? 50];
  const confirmationBatch = Math.min(20, batch);
  let sent = 0;
  for (let i = 0; i < rounds; i++) {
    const [confirmations, alerts] = [await sendConfirmations(db, confirmationBatch), await sendAlerts(db, batch, now?.())];
    sent += confirmations + alerts;
    if (confirmations < confirmationBatch && alerts < batch) return { sent, more: false };
  }
  return { sent, more: true };
}
