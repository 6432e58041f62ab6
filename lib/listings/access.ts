import { and, eq, or, type SQL } from "drizzle-orm";
import { listings, properties, type ListingRow, type PropertyRow } from "../../db/schema";
import type { Actor, MemberActor } from "../context/actor";

/**
 * What a restricted actor (a broker's view) may touch: properties assigned to or created by its
 * member, and their listings. It may also read every public listing of the tenant.
 * Broad actors see and change everything in their tenant.
 */
export function ownsProperty(actor: MemberActor, p: Pick<PropertyRow, "assignedToId" | "createdById">): boolean {
  return actor.access === "broad" || p.assignedToId === actor.userId || p.createdById === actor.userId;
}

/** The service's own writers (lead processing, imports) act for the whole tenant. */
export function canWriteListing(actor: Actor, p: PropertyRow, l: ListingRow): boolean {
  if (actor.kind !== "member") return actor.kind === "system" || actor.kind === "integration";
  return ownsProperty(actor, p) || l.createdById === actor.userId;
}

export function canReadListing(actor: Actor, p: PropertyRow, l: ListingRow): boolean {
  return l.visibility === "public" || canWriteListing(actor, p, l);
}

/** SQL form of `canReadListing`, for queries joining listings with properties. */
export function readableListingsWhere(actor: MemberActor): SQL | undefined {
  if (actor.access === "broad") return undefined;
  return or(
    eq(listings.visibility, "public"),
    eq(listings.createdById, actor.userId),
    eq(properties.assignedToId, actor.userId),
    eq(properties.createdById, actor.userId),
  );
}

export function tenantListingsWhere(actor: MemberActor): SQL {
  return and(eq(listings.tenantId, actor.tenantId), eq(properties.tenantId, actor.tenantId), readableListingsWhere(actor))!;
}

/** `tenantListingsWhere` for any actor, as `canReadListing` decides: a visitor reads public listings only. */
export function listingsReadableByWhere(actor: Actor): SQL {
  if (actor.kind === "member") return tenantListingsWhere(actor);
  const own = and(eq(listings.tenantId, actor.tenantId), eq(properties.tenantId, actor.tenantId))!;
  return actor.kind === "visitor" ? and(own, eq(listings.visibility, "public"))! : own;
}
