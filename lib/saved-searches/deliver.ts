import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { savedSearches, sites, type SavedSearchRow } from "../../db/schema";
import { config } from "../config";
import { logger } from "../log/logger";
import { findSiteListing } from "../sites/find-site-listing";
import { toPublicDocument } from "../sites/public-document";
import { stateParams } from "../sites/render/catalogue-query";
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
 * (the cap: what matched meanwhile waits and goes in one message), daily ones once a day at the
 * digest hour. Claimed by moving `last_alert_at` to now, with their waiting hits marked sent, in
 * one transaction; a failed send puts both back. Returns the searches claimed.
 */
export async function sendAlerts(db: Db, limit = 50): Promise<number> {
  const c = config();
  const claimed = rowsOf<{ id: string; previous: string | null }>(
    await db.execute(sql`
      with digest as (
        select ((date_trunc('day', now() at time zone ${c.SAVED_SEARCH_TIMEZONE}) + make_interval(hours => ${c.SAVED_SEARCH_DIGEST_HOUR}))
                at time zone ${c.SAVED_SEARCH_TIMEZONE}) as at
      ),
      due as (
        select s.id, s.last_alert_at as previous from saved_searches s, digest
        where s.status = 'active' and s.failures < ${MAX_FAILURES}
          and s.id in (select saved_search_id from saved_search_hits where sent_at is null)
          and ((s.frequency = 'instant' and (s.last_alert_at is null or s.last_alert_at <= now() - interval '1 hour'))
            or (s.frequency = 'daily' and now() >= digest.at and (s.last_alert_at is null or s.last_alert_at < digest.at)))
        limit ${limit} for update of s skip locked
      )
      update saved_searches s set last_alert_at = now() from due where s.id = due.id
      returning s.id, due.previous`),
  );
  for (const { id, previous } of claimed) {
    const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
    const hits = rowsOf<{ listing_id: string; reason: "new" | "price_drop" }>(
      await db.execute(sql`
        update saved_search_hits set sent_at = now() where saved_search_id = ${id}::uuid and sent_at is null
        returning listing_id, reason`),
    );
    const undo = async (err: unknown) => {
      if (hits.length)
        await db.execute(sql`update saved_search_hits set sent_at = null
          where saved_search_id = ${id}::uuid and listing_id in (${sql.join(
            hits.map((h) => sql`${h.listing_id}::uuid`),
            sql`, `,
          )})`);
      await noteFailure(db, row, err, { lastAlertAt: previous ? new Date(previous) : null });
    };
    try {
      const [site] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.id, row.siteId), eq(sites.tenantId, row.tenantId)));
      const t = alertTexts(row.locale);
      const items: AlertItem[] = [];
      // Still on the site now? A listing that left the air since it matched is not sent.
      for (const h of hits) {
        const found = site?.active ? await findSiteListing(db, site, h.listing_id) : null;
        if (found && !found.isNetworkListing) items.push(itemOf(row, found.document, h.reason, t));
      }
      if (!items.length) {
        await db
          .update(savedSearches)
          .set({ lastAlertAt: previous ? new Date(previous) : null })
          .where(eq(savedSearches.id, id));
        continue;
      }
      const unsubscribe = alertLink(row, "unsubscribe");
      const msg = alertMessage(t, row.locale, await brandOf(db, row.tenantId), describeFilters(row.filters as SavedFilters, t), items, {
        all: catalogueUrl(row),
        unsubscribe,
      });
      await sendToVisitor(db, row, msg, { unsubscribeUrl: unsubscribe, key: `saved-search-alert:${row.id}:${Date.now()}` });
      if (row.failures) await db.update(savedSearches).set({ failures: 0, lastError: null }).where(eq(savedSearches.id, id));
    } catch (err) {
      await undo(err);
    }
  }
  return claimed.length;
}

/**
 * The messages job's work: confirmations, then due alerts, in batches while batches come back full
 * (a burst is sent at once; a failed send waits for the next run instead of being retried in a loop).
 */
export async function sendSavedSearchMessages(db: Db): Promise<number> {
  let total = 0;
  for (let i = 0; i < 100; i++) {
    const [confirmations, alerts] = [await sendConfirmations(db, 20), await sendAlerts(db, 50)];
    total += confirmations + alerts;
    if (confirmations < 20 && alerts < 50) break;
  }
  return total;
}
