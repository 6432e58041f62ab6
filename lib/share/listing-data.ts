import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { listings, media, members, properties, type ListingRow, type MediaRow, type PropertyRow } from "../../db/schema";
import { docColumns, documentFromRow } from "../search/stored-document";
import { toBrokerCard, type BrokerCard } from "../sites/brokers";
import { toPublicDocument } from "../sites/public-document";
import type { TenantSettings } from "../tenants/settings-schema";
import { applyToDocument, mediaPayload, propertyPayload, sharedPoint } from "./field-visibility";

export type ListingData = { listing: ListingRow; property: PropertyRow; doc: Record<string, unknown> };

/** Listings of one tenant with their properties and stored search documents, keyed by listing id. */
export async function loadListings(db: DbOrTx, tenantId: string, ids: string[]): Promise<Map<string, ListingData>> {
  const out = new Map<string, ListingData>();
  if (!ids.length) return out;
  const [rows, docs] = await Promise.all([
    db
      .select({ listing: listings, property: properties })
      .from(listings)
      .innerJoin(properties, and(eq(properties.id, listings.propertyId), eq(properties.tenantId, tenantId)))
      .where(and(eq(listings.tenantId, tenantId), inArray(listings.id, ids))),
    db.execute(
      sql`select ${docColumns("d")} from search_index d where d.tenant_id = ${tenantId}::uuid and d.listing_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  ]);
  const byId = new Map(rowsOf<Record<string, unknown>>(docs).map((r) => [String(r.listing_id), documentFromRow(r)]));
  for (const r of rows) out.set(r.listing.id, { listing: r.listing, property: r.property, doc: byId.get(r.listing.id) ?? {} });
  return out;
}

/** Spec 2 §2.8 restrictions: links of listings in these stages answer 404 (or drop out of a shortlist). */
export function hiddenByRules(s: TenantSettings, l: ListingRow): boolean {
  const r = s.sharingConfig.restrictions;
  return r.hideSharesForStages.includes(l.stage) || (r.autoHideTerminalStages && s.listingWorkflow.terminalStageIds.includes(l.stage));
}

/** The §2.2 document of a listing (detail or summary) narrowed to the tenant's field visibility. */
export function sharedDocument(s: TenantSettings, seed: string, d: ListingData, detail: boolean) {
  const v = s.sharingConfig.fieldVisibility;
  return applyToDocument(toPublicDocument(d.doc, { detail }), v, sharedPoint(v, seed, d.property));
}

async function brokerOf(db: DbOrTx, tenantId: string, d: ListingData): Promise<BrokerCard | null> {
  return memberCard(db, tenantId, d.property.assignedToId ?? d.listing.createdById);
}

/** The public broker card (spec 2 §2.5: name, photo, phone, CRECI; never the e-mail) of an active member. */
export async function memberCard(db: DbOrTx, tenantId: string, id: string | null): Promise<BrokerCard | null> {
  if (!id) return null;
  const [m] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, id), eq(members.tenantId, tenantId), eq(members.active, true)))
    .limit(1);
  return m ? toBrokerCard(m) : null;
}

/** `listing`, `property`, `medias[]` (and `agent`): the payload of listing and seller-report links. */
export async function listingPayload(db: DbOrTx, s: TenantSettings, seed: string, d: ListingData) {
  const v = s.sharingConfig.fieldVisibility;
  const point = sharedPoint(v, seed, d.property);
  const medias: MediaRow[] = await db
    .select()
    .from(media)
    .where(and(eq(media.tenantId, d.listing.tenantId), eq(media.propertyId, d.property.id)))
    .orderBy(asc(media.order), asc(media.createdAt));
  return {
    listing: applyToDocument(toPublicDocument(d.doc, { detail: true }), v, point),
    property: propertyPayload(d.property, v, point),
    medias: medias.map(mediaPayload),
    agent: v.agentInfo === "visible" ? await brokerOf(db, d.listing.tenantId, d) : null,
  };
}

/** Deals that name the listing among their lead listings (how lead processing links a lead to a listing). */
export async function leadsOfListing(db: DbOrTx, tenantId: string, listingId: string): Promise<number> {
  const res = await db.execute(sql`
    select count(*)::int as n from deals
    where tenant_id = ${tenantId} and custom_data @> ${JSON.stringify({ leadListings: [{ listingId }] })}::jsonb`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}
