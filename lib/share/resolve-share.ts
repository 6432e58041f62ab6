import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { listingSiteViews, shareLinks, shortlists, sites, visitItineraries, type ShareLinkRow } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import type { ShareVisitorCtx } from "./share-visitor";
import { DomainError, notFound, unauthorized } from "../errors/domain-errors";
import { hiddenByRules, leadsOfListing, listingPayload, loadListings, memberCard, sharedDocument } from "./listing-data";
import { grantOpens } from "./password-grant";
import { passwordAccepted, slowDownWrongPassword, takePasswordAttempt } from "./password-throttle";
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
  if (!link?.active) throw shareNotFound();
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) throw expired();
  return link;
}

/**
 * Password check of a protected link: 401 without one, 403 when wrong, 429 after too many wrong ones.
 * A valid grant (what the share page's password form leaves in a cookie) stands for the password.
 */
export async function checkPassword(db: Db, link: ShareLinkRow, password: string | undefined, grant?: string): Promise<void> {
  if (!link.passwordHash) return;
  if ((password === undefined || password === "") && grant && grantOpens(link, grant)) return;
  if (password === undefined || password === "") throw passwordRequired();
  const attempts = await takePasswordAttempt(db, link.id);
  if (await verifyPassword(password, link.passwordHash)) return passwordAccepted(db, link.id);
  await slowDownWrongPassword(attempts);
  throw passwordInvalid();
}

async function siteOf(db: Db, tenant: TenantRow) {
  const d = tenant.settings.sharingConfig.defaultShareDomain;
  const rows = await db
    .select({ id: sites.id, domain: sites.domain })
    .from(sites)
    .where(and(eq(sites.tenantId, tenant.id), eq(sites.active, true), eq(sites.published, true), eq(sites.domainStatus, "active")))
    .orderBy(asc(sites.createdAt));
  const site = (d.type === "site" ? rows.find((s) => s.id === d.siteId) : undefined) ?? rows[0];
  return site ? { hasSite: true, domain: site.domain, siteId: site.id } : { hasSite: false, domain: null, siteId: null };
}

/** The entity of a link as its kind's payload (spec 2 §2.8); 404 when it is gone or hidden by the rules. */
/** What the payload of a link depends on (a real link, or the brokers' preview of one). */
const Option = z.object({ id: z.string(), label: z.string() });
/** The resolve response of spec 2 §2.8 (`resolveShare`). */
export const ShareResolveSchema = z
  .object({
    token: z.object({ id: z.uuid(), entityType: z.string(), entityId: z.uuid(), dealId: z.uuid().nullable(), createdBy: z.uuid().nullable() }),
    entity: z
      .object({ type: z.enum(["listing", "shortlist", "seller_report", "visit_itinerary", "pricing_tool"]) })
      .catchall(z.unknown())
      .meta({
        description:
          "By `type`: `listing` → `listing` (the §2.2 detail document narrowed by the tenant's `fieldVisibility`), `property` (type, rooms, areas, " +
          "features, `address` at the allowed level, `coordinates` `{latitude, longitude, approximate}` unless hidden, `condoFee`/`propertyTax` when " +
          "financials are visible), `medias[]` (`id`, `src`, `alt`, `type`, `category`, `order`, `isPrimary`), `agent` (broker card or null); " +
          "`seller_report` → the same plus `stats` (`views`: opens of the listing's share links plus detail documents its tenant's sites served; `leads`: deals naming the listing; `daysOnMarket` " +
          "since first publication, or null; extension `timeline[]`: `{week, views, leads}` for the last 12 weeks (UTC, `week` the Monday as YYYY-MM-DD, oldest first) for the share page's chart); " +
          "`shortlist` → `shortlist` (`id`, `name`, `description`), `listings[]` (summary documents, in order; " +
          "listings hidden by the rules drop out), `listingCount`, extension `agent` (the link creator's broker card, or null); `visit_itinerary` → `itinerary` (`id`, `name`, `scheduledDate`), `stops[]` " +
          "(`order`, `listingId`, `time`, `notes`, `listing`), `meetingPoint`, `routeCache`, `stopCount`, extension `agent` (as for shortlists); `pricing_tool` → `pricingTool` with `cities[]` " +
          "(`code`, `label`, `state`). Approximate coordinates are displaced 150 to 500 m by an offset fixed per link.",
      }),
    branding: z.object({ name: z.string(), logo: z.string().nullable(), primaryColor: z.string() }),
    tenantConfig: z.object({
      propertyFeatures: z.array(Option),
      buildingFeatures: z.array(Option),
      primaryMarketEnabled: z.boolean(),
      propertyTypes: z.array(Option),
    }),
    site: z.object({ hasSite: z.boolean(), domain: z.string().nullable(), siteId: z.uuid().nullable() }),
    tenantId: z.uuid(),
    showFinancialSimulator: z
      .boolean()
      .meta({ description: "`sharingConfig.showFinancialSimulator`, for the page: false hides the financing simulator on the shared share domain." }),
    languages: z.array(z.enum(["pt-BR", "en", "es"])).meta({
      description:
        "Extension: the languages the tenant enabled (`listingLanguages`, pt-BR first), in which the share page is served (`/en/p/{token}`, `/es/p/{token}`).",
    }),
  })
  .meta({ id: "ShareResolve" });

export type LinkTarget = Pick<ShareLinkRow, "entityType" | "entityId" | "coordinateSeed" | "createdById">;

async function entityPayload(db: Db, tenant: TenantRow, link: LinkTarget): Promise<Record<string, unknown>> {
  const s = tenant.settings;
  const seed = link.coordinateSeed;
  switch (link.entityType) {
    case "listing":
    case "seller_report": {
      const d = (await loadListings(db, tenant.id, [link.entityId])).get(link.entityId);
      if (!d || hiddenByRules(s, d.listing)) throw shareNotFound();
      const payload = await listingPayload(db, s, seed, d);
      if (link.entityType === "listing") return payload;
      const [stats, timeline] = await Promise.all([sellerStats(db, tenant.id, d.listing), sellerTimeline(db, tenant.id, d.listing.id)]);
      return { ...payload, stats: { ...stats, timeline } };
    }
    case "shortlist": {
      const [sl] = await db
        .select()
        .from(shortlists)
        .where(and(eq(shortlists.id, link.entityId), eq(shortlists.tenantId, tenant.id)))
        .limit(1);
      if (!sl) throw shareNotFound();
      const data = await loadListings(db, tenant.id, sl.listingIds);
      const shown = sl.listingIds.map((id) => data.get(id)).filter((d) => d && !hiddenByRules(s, d.listing));
      const listings = shown.map((d) => sharedDocument(s, seed, d!, false));
      return {
        shortlist: { id: sl.id, name: sl.name, description: sl.description },
        listings,
        listingCount: listings.length,
        agent: await linkAgent(db, tenant, link),
      };
    }
    case "visit_itinerary": {
      const [it] = await db
        .select()
        .from(visitItineraries)
        .where(and(eq(visitItineraries.id, link.entityId), eq(visitItineraries.tenantId, tenant.id)))
        .limit(1);
      if (!it) throw shareNotFound();
      const data = await loadListings(
        db,
        tenant.id,
        it.stops.map((st) => st.listingId),
      );
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
      return {
        itinerary: { id: it.id, name: it.name, scheduledDate: it.scheduledDate },
        stops,
        meetingPoint: it.meetingPoint,
        routeCache,
        stopCount: stops.length,
        agent: await linkAgent(db, tenant, link),
      };
    }
    case "pricing_tool":
      return { pricingTool: { cities: await pricingCities(db, tenant.id) } };
  }
}

/** Who sent a shortlist or an itinerary: the link creator's public card, per `fieldVisibility.agentInfo`. */
async function linkAgent(db: Db, tenant: TenantRow, link: LinkTarget) {
  return tenant.settings.sharingConfig.fieldVisibility.agentInfo === "visible" ? memberCard(db, tenant.id, link.createdById) : null;
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

/** Weeks the seller report's chart covers (this week and the eleven before it). */
export const TIMELINE_WEEKS = 12;

/**
 * The seller report's figures per week (UTC, weeks starting Monday), oldest first: `views` from the
 * access log of the listing's links plus its site detail opens, `leads` from the deals naming it.
 * One statement; weeks without activity are zeros, so a chart has a fixed width.
 */
async function sellerTimeline(db: Db, tenantId: string, listingId: string): Promise<{ week: string; views: number; leads: number }[]> {
  const res = await db.execute(sql`
    with weeks as (
      select generate_series(date_trunc('week', now() at time zone 'UTC') - interval '${sql.raw(String(TIMELINE_WEEKS - 1))} weeks',
                             date_trunc('week', now() at time zone 'UTC'), interval '1 week') as week
    ),
    since as (select min(week) as t from weeks),
    lv as (
      select date_trunc('week', v.viewed_at at time zone 'UTC') as week, count(*)::int as n
      from share_link_views v join share_links l on l.id = v.share_link_id
      where v.tenant_id = ${tenantId} and l.tenant_id = ${tenantId} and l.entity_id = ${listingId}
        and v.viewed_at >= (select t from since) at time zone 'UTC'
      group by 1
    ),
    sv as (
      select date_trunc('week', day::timestamp) as week, sum(views)::int as n
      from listing_site_views
      where tenant_id = ${tenantId} and listing_id = ${listingId} and day >= (select t from since)::date
      group by 1
    ),
    ld as (
      select date_trunc('week', created_at at time zone 'UTC') as week, count(*)::int as n
      from deals
      where tenant_id = ${tenantId} and custom_data @> ${JSON.stringify({ leadListings: [{ listingId }] })}::jsonb
        and created_at >= (select t from since) at time zone 'UTC'
      group by 1
    )
    select to_char(w.week, 'YYYY-MM-DD') as week, (coalesce(lv.n, 0) + coalesce(sv.n, 0))::int as views, coalesce(ld.n, 0)::int as leads
    from weeks w left join lv on lv.week = w.week left join sv on sv.week = w.week left join ld on ld.week = w.week
    order by w.week`);
  return rowsOf<{ week: string; views: number; leads: number }>(res).map((r) => ({ week: r.week, views: Number(r.views), leads: Number(r.leads) }));
}

/** What a visitor sends or brings to a resolve, and what the share page adds to it. */
export type ResolveInput = {
  /** `{password}` (the API's POST body) */
  body?: unknown;
  visit: Visit;
  /** A grant from the share page's password form, standing for the password. */
  grant?: string;
  /** The host and locale the page was asked on: a tenant it refuses makes the link a 404. */
  admit?: (tenant: TenantRow) => boolean | Promise<boolean>;
  /** false: do not record an access (the link preview image). */
  record?: boolean;
};

/**
 * `GET|POST /api/sites/share/{token}`: the resolve response of spec 2 §2.8, with the errors of
 * §7 (404 unknown, inactive or hidden; 410 expired, by `shareVisitor`; 401 password needed; 403
 * wrong password). A successful open is recorded in the background.
 */
export async function resolveShare(ctx: ShareVisitorCtx, input: ResolveInput): Promise<z.infer<typeof ShareResolveSchema>> {
  const { db } = ctx;
  const { link, tenant } = ctx.actor;
  const { password } = ResolveBodySchema.parse(input.body ?? {});
  if (input.admit && !(await input.admit(tenant))) throw shareNotFound();
  await checkPassword(db, link, password, input.grant);
  const answer = await shareAnswer(db, tenant, link, { id: link.id, dealId: link.dealId, createdBy: link.createdById });
  if (input.record !== false) recordAccess(db, link, input.visit);
  return answer;
}

/**
 * The resolve answer of a link's entity under the tenant's settings as given (the brokers'
 * preview passes draft settings and a link that does not exist yet).
 */
export async function shareAnswer<Id extends string | null>(
  db: Db,
  tenant: TenantRow,
  link: LinkTarget,
  ref: { id: Id; dealId: string | null; createdBy: string | null },
) {
  const entity = await entityPayload(db, tenant, link);
  const s = tenant.settings;
  return {
    token: { id: ref.id, entityType: link.entityType, entityId: link.entityId, dealId: ref.dealId, createdBy: ref.createdBy },
    entity: { type: link.entityType, ...entity },
    branding: { name: s.branding.name, logo: s.branding.logo, primaryColor: s.branding.primaryColor },
    tenantConfig: {
      propertyFeatures: s.propertyFeatures,
      buildingFeatures: s.buildingFeatures,
      primaryMarketEnabled: s.primaryMarketEnabled,
      propertyTypes: s.propertyTypes,
    },
    site: await siteOf(db, tenant),
    tenantId: tenant.id,
    showFinancialSimulator: s.sharingConfig.showFinancialSimulator,
    languages: ["pt-BR" as const, ...s.listingLanguages.filter((l) => l !== "pt-BR")],
  };
}
