import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { listingSiteViews, shareLinks, shortlists, sites, visitItineraries, type ShareLinkRow, type TenantRow } from "../../db/schema";
import { DomainError, notFound, unauthorized } from "../errors/domain-errors";
import { loadTenant } from "../tenants/load-tenant";
import { hiddenByRules, leadsOfListing, listingPayload, loadListings, sharedDocument } from "./listing-data";
import { assertNotThrottled, noteWrongPassword } from "./password-throttle";
import { pricingCities } from "./pricing-cities";
import { recordAccess, type Visit } from "./record-access";
import { SHARE_TOKEN_PATTERN, verifyPassword } from "./secrets";

export const ResolveBodySchema = z.strictObject({ password: z.string().max(200).optional() }).meta({ id: "ShareResolveBody" });

export const shareNotFound = () => notFound("Share link not found", "not_found");
const expired = () => new DomainError("gone", "expired", "Share link has expired");
const passwordRequired = () => unauthorized("Password required", "password_required");
const passwordInvalid = () => new DomainError("forbidden", "password_invalid", "Invalid password");

/**
 * A link that may be opened now: known, active, not expired (an expiry instant is already past).
 * Shared by the resolve and the pricing helpers.
 */
export async function openLink(db: Db, token: string, now = new Date()): Promise<ShareLinkRow> {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw shareNotFound();
  const [link] = await db.select().from(shareLinks).where(eq(shareLinks.token, token)).limit(1);
  if (!link || !link.active) throw shareNotFound();
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) throw expired();
  return link;
}

/** Password check of a protected link: 401 without one, 403 when wrong, 429 after too many wrong ones. */
async function checkPassword(db: Db, link: ShareLinkRow, password: string | undefined): Promise<void> {
  if (!link.passwordHash) return;
  if (password === undefined || password === "") throw passwordRequired();
  await assertNotThrottled(db, link.id);
  if (await verifyPassword(password, link.passwordHash)) return;
  await noteWrongPassword(db, link.id);
  throw passwordInvalid();
}

async function siteOf(db: Db, tenant: TenantRow) {
  const d = tenant.settings.sharingConfig.defaultShareDomain;
  const rows = await db
    .select({ id: sites.id, domain: sites.domain })
    .from(sites)
    .where(and(eq(sites.tenantId, tenant.id), eq(sites.active, true), eq(sites.published, true)))
    .orderBy(asc(sites.createdAt));
  const site = (d.type === "site" ? rows.find((s) => s.id === d.siteId) : undefined) ?? rows[0];
  return site ? { hasSite: true, domain: site.domain, siteId: site.id } : { hasSite: false, domain: null, siteId: null };
}

/** The entity of a link as its kind's payload (spec 2 §2.8); 404 when it is gone or hidden by the rules. */
async function entityPayload(db: Db, tenant: TenantRow, link: ShareLinkRow): Promise<Record<string, unknown>> {
  const s = tenant.settings;
  const seed = link.coordinateSeed;
  switch (link.entityType) {
    case "listing":
    case "seller_report": {
      const d = (await loadListings(db, tenant.id, [link.entityId])).get(link.entityId);
      if (!d || hiddenByRules(s, d.listing)) throw shareNotFound();
      const payload = await listingPayload(db, s, seed, d);
      if (link.entityType === "listing") return payload;
      return { ...payload, stats: await sellerStats(db, tenant.id, d.listing) };
    }
    case "shortlist": {
      const [sl] = await db.select().from(shortlists).where(and(eq(shortlists.id, link.entityId), eq(shortlists.tenantId, tenant.id))).limit(1);
      if (!sl) throw shareNotFound();
      const data = await loadListings(db, tenant.id, sl.listingIds);
      const shown = sl.listingIds.map((id) => data.get(id)).filter((d) => d && !hiddenByRules(s, d.listing));
      const listings = shown.map((d) => sharedDocument(s, seed, d!, false));
      return { shortlist: { id: sl.id, name: sl.name, description: sl.description }, listings, listingCount: listings.length };
    }
    case "visit_itinerary": {
      const [it] = await db.select().from(visitItineraries).where(and(eq(visitItineraries.id, link.entityId), eq(visitItineraries.tenantId, tenant.id))).limit(1);
      if (!it) throw shareNotFound();
      const data = await loadListings(db, tenant.id, it.stops.map((st) => st.listingId));
      const stops = it.stops
        .map((st, i) => ({ st, i, d: data.get(st.listingId) }))
        .filter(({ d }) => d && !hiddenByRules(s, d.listing))
        .map(({ st, i, d }) => ({ order: i + 1, listingId: st.listingId, time: st.time, notes: st.notes, listing: sharedDocument(s, seed, d!, false) }));
      const kept = new Set(stops.map((x) => x.listingId));
      const routeCache = {
        ...it.routeCache,
        order: it.routeCache.order.filter((id) => kept.has(id)),
        legs: it.routeCache.legs.filter((l) => kept.has(l.toListingId) && (l.fromListingId === null || kept.has(l.fromListingId))),
      };
      return { itinerary: { id: it.id, name: it.name, scheduledDate: it.scheduledDate }, stops, meetingPoint: it.meetingPoint, routeCache, stopCount: stops.length };
    }
    case "pricing_tool":
      return { pricingTool: { cities: await pricingCities(db, tenant.id) } };
  }
}

/**
 * Seller report figures: `views` = opens of the listing's share links plus its detail opens on the
 * tenant's sites; `leads` = deals that name it; `daysOnMarket` = days since first publication.
 */
async function sellerStats(db: Db, tenantId: string, listing: { id: string; publishedAt: Date | null }) {
  const links = await db
    .select({ views: shareLinks.viewCount })
    .from(shareLinks)
    .where(and(eq(shareLinks.tenantId, tenantId), eq(shareLinks.entityId, listing.id)));
  const [site] = await db
    .select({ views: sql<number>`coalesce(sum(${listingSiteViews.views}), 0)::int` })
    .from(listingSiteViews)
    .where(and(eq(listingSiteViews.tenantId, tenantId), eq(listingSiteViews.listingId, listing.id)));
  const views = links.reduce((n, l) => n + l.views, 0) + Number(site?.views ?? 0);
  const daysOnMarket = listing.publishedAt ? Math.max(0, Math.floor((Date.now() - listing.publishedAt.getTime()) / 86_400_000)) : null;
  return { views, leads: await leadsOfListing(db, tenantId, listing.id), daysOnMarket };
}

/**
 * `GET|POST /api/sites/share/{token}`: the resolve response of spec 2 §2.8, with the errors of
 * §7 (404 unknown, inactive or hidden; 410 expired; 401 password needed; 403 wrong password).
 * A successful open is recorded in the background.
 */
export async function resolveShare(db: Db, token: string, input: { body?: unknown; visit: Visit }): Promise<Record<string, unknown>> {
  const { password } = ResolveBodySchema.parse(input.body ?? {});
  const link = await openLink(db, token);
  await checkPassword(db, link, password);
  const tenant = await loadTenant(db, link.tenantId);
  const entity = await entityPayload(db, tenant, link);
  const s = tenant.settings;
  const answer = {
    token: { id: link.id, entityType: link.entityType, entityId: link.entityId, dealId: link.dealId, createdBy: link.createdById },
    entity: { type: link.entityType, ...entity },
    branding: { name: s.branding.name, logo: s.branding.logo, primaryColor: s.branding.primaryColor },
    tenantConfig: { propertyFeatures: s.propertyFeatures, buildingFeatures: s.buildingFeatures, primaryMarketEnabled: s.primaryMarketEnabled, propertyTypes: s.propertyTypes },
    site: await siteOf(db, tenant),
    tenantId: tenant.id,
    showFinancialSimulator: s.sharingConfig.showFinancialSimulator,
  };
  recordAccess(db, link, input.visit);
  return answer;
}
