import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { MemberActor } from "../../lib/context/actor";
import { memberCtx } from "../../lib/context/verb-context";
import { createShareLink } from "../../lib/share/share-links";
import { createShortlist } from "../../lib/share/shortlists";
import { createItinerary } from "../../lib/share/visit-itineraries";
import { loadTenant } from "../../lib/tenants/load-tenant";
import { shareUrl } from "../../lib/share/share-url";
import type { Db } from "../client";
import { apiKeys, listings, listingSiteViews, media, members, properties, shareLinks, shareLinkViews, shortlists } from "../schema";
import { inTransaction } from "../transaction";

/** The demo's protected link opens with this password (printed beside it). */
export const DEMO_SHARE_PASSWORD = "demo1234";
const SHORTLIST_NAME = "Seleção para a família Souza";

export type DemoShare = { label: string; url: string };

/**
 * One share link of each kind for the demo agency (issue #16), plus a protected and an expired
 * one, so every state of the share page can be opened. Made once: a database seeded before this
 * existed gets them on the next run.
 */
export async function ensureDemoShares(db: Db, tenantId: string): Promise<DemoShare[]> {
  const [done] = await db
    .select({ id: shortlists.id })
    .from(shortlists)
    .where(and(eq(shortlists.tenantId, tenantId), eq(shortlists.name, SHORTLIST_NAME)))
    .limit(1);
  if (!done) await createDemoShares(db, tenantId);
  return listDemoShares(db, tenantId);
}

async function createDemoShares(db: Db, tenantId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [owner] = await tx
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenantId), eq(members.role, "owner")))
      .orderBy(asc(members.createdAt))
      .limit(1);
    const [key] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.memberId, owner.id)))
      .limit(1);
    const actor: MemberActor = { kind: "member", tenantId, userId: owner.id, role: "owner", scope: "broad", keyId: key.id, access: "broad" };
    const ctx = memberCtx(tx, actor);
    // Public, active sale listings with photos and a point, in São Paulo, newest properties last.
    const rows = await tx
      .select({ id: listings.id, type: listings.type })
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .where(
        and(
          eq(listings.tenantId, tenantId),
          eq(listings.visibility, "public"),
          eq(listings.stage, "active"),
          isNotNull(properties.latitude),
          eq(properties.city, "São Paulo"),
          sql`exists (select 1 from ${media} m where m.property_id = ${properties.id})`,
        ),
      )
      .orderBy(asc(listings.createdAt))
      .limit(40);
    const sale = rows.filter((r) => r.type === "sale").map((r) => r.id);
    const pick = sale.length >= 6 ? sale : rows.map((r) => r.id);
    const link = (entityType: string, entityId: string, extra: Record<string, unknown> = {}) => createShareLink(ctx, { entityType, entityId, ...extra });
    const first = await link("listing", pick[0]);
    await link("listing", pick[1], { password: DEMO_SHARE_PASSWORD });
    const expiring = await link("listing", pick[2], { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    // An expired link: made valid, then dated in the past (the API refuses a past expiry).
    await tx
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 86_400_000) })
      .where(eq(shareLinks.id, expiring.id));
    await link("seller_report", pick[0]);
    await sellerHistory(tx, tenantId, pick[0], first.id);
    const sl = await createShortlist(ctx, {
      name: SHORTLIST_NAME,
      description: "Os imóveis que conversamos, para vocês verem com calma.",
      listingIds: pick.slice(0, 5),
    });
    await link("shortlist", sl.id);
    // The coming Saturday (never today), as the itinerary's name says.
    const ahead = (6 - new Date().getUTCDay() + 7) % 7 || 7;
    const day = new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const it = await createItinerary(ctx, {
      name: "Visitas de sábado",
      scheduledDate: day,
      meetingPoint: {
        name: "Estação Fradique Coutinho (Linha 4)",
        address: "Rua dos Pinheiros, 1400 - Pinheiros, São Paulo",
        latitude: -23.5662,
        longitude: -46.6843,
      },
      stops: [
        { listingId: pick[3], time: "09:30", notes: "A síndica nos recebe na portaria." },
        { listingId: pick[4], time: "10:30", notes: null },
        { listingId: pick[5] ?? pick[0], time: "11:30", notes: "Vaga de garagem a confirmar." },
      ],
    });
    await link("visit_itinerary", it.id);
  });
}

/**
 * Ten weeks on the market for the seller report's listing: published 70 days ago, opened through its
 * link and on the site a little more each week, so the report's chart has a history to show.
 */
async function sellerHistory(tx: Parameters<Parameters<typeof inTransaction>[1]>[0], tenantId: string, listingId: string, linkId: string) {
  const day = 86_400_000;
  const now = Date.now();
  await tx
    .update(listings)
    .set({ publishedAt: new Date(now - 70 * day) })
    .where(eq(listings.id, listingId));
  const views: (typeof shareLinkViews.$inferInsert)[] = [];
  const siteDays: (typeof listingSiteViews.$inferInsert)[] = [];
  for (let d = 69; d >= 1; d--) {
    const n = Math.round(1 + (70 - d) / 14 + ((d * 7) % 3));
    for (let i = 0; i < n; i++)
      views.push({
        tenantId,
        shareLinkId: linkId,
        viewedAt: new Date(now - d * day + i * 3_600_000),
        clientHash: `demo-${d}-${i % 2}`,
        userAgent: "Demo",
        referrer: null,
      });
    siteDays.push({ tenantId, listingId, day: new Date(now - d * day).toISOString().slice(0, 10), views: 2 + ((d * 5) % 4) });
  }
  await tx.insert(shareLinkViews).values(views);
  await tx.update(shareLinks).set({ viewCount: views.length }).where(eq(shareLinks.id, linkId));
  await tx.insert(listingSiteViews).values(siteDays).onConflictDoNothing();
  // Six of the demo's buyers asked about it along the way (deals naming it, as lead processing records them).
  await tx.execute(sql`
    with picked as (
      select id, row_number() over (order by created_at, id) as n from deals
      where tenant_id = ${tenantId} and deal_type = 'sale' order by created_at, id limit 6
    )
    update deals d set
      custom_data = jsonb_set(coalesce(d.custom_data, '{}'::jsonb), '{leadListings}',
        coalesce(d.custom_data -> 'leadListings', '[]'::jsonb) || jsonb_build_array(jsonb_build_object('listingId', ${listingId}::text))),
      created_at = now() - make_interval(days => (7 + (picked.n * 9))::int)
    from picked where d.id = picked.id`);
}

async function listDemoShares(db: Db, tenantId: string): Promise<DemoShare[]> {
  const tenant = await loadTenant(db, tenantId);
  const rows = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.tenantId, tenantId), sql`${shareLinks.entityType} <> 'pricing_tool'`))
    .orderBy(asc(shareLinks.createdAt))
    .limit(20);
  const out: DemoShare[] = [];
  for (const r of rows) {
    const url = await shareUrl(db, tenant, tenant.settings.sharingConfig, r.token, r.entityType);
    const what = r.passwordHash
      ? `listing (password ${DEMO_SHARE_PASSWORD})`
      : r.expiresAt && r.expiresAt.getTime() < Date.now()
        ? "listing (expired: 410)"
        : r.entityType.replace("_", " ");
    out.push({ label: what, url });
  }
  return out;
}
