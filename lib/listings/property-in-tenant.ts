import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { listings, media, properties, type ListingRow, type PropertyRow } from "../../db/schema";
import type { Actor } from "../context/actor";
import { notFound } from "../errors/domain-errors";
import { canReadListing } from "./access";
import { serializeListing, serializeLocation, serializeProperty, type PropertyWithListings } from "./serialize";

export async function getPropertyInTenant(db: DbOrTx, tenantId: string, propertyId: string, forUpdate = false): Promise<PropertyRow> {
  const q = db
    .select()
    .from(properties)
    .where(and(eq(properties.id, propertyId), eq(properties.tenantId, tenantId)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw notFound(`Property ${propertyId} not found.`);
  return row;
}

export async function listingsOfProperty(db: DbOrTx, tenantId: string, propertyId: string): Promise<ListingRow[]> {
  return db
    .select()
    .from(listings)
    .where(and(eq(listings.tenantId, tenantId), eq(listings.propertyId, propertyId)))
    .orderBy(asc(listings.createdAt), asc(listings.id));
}

/** The property response: the property, its location and the listings the actor may read. */
export async function presentProperty(db: DbOrTx, actor: Actor, p: PropertyRow): Promise<PropertyWithListings> {
  const [mediaRows, listingRows] = await Promise.all([
    db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, p.tenantId), eq(media.propertyId, p.id))),
    listingsOfProperty(db, p.tenantId, p.id),
  ]);
  return {
    property: serializeProperty(p, mediaRows),
    location: serializeLocation(p),
    listings: listingRows.filter((l) => canReadListing(actor, p, l)).map(serializeListing),
  };
}
