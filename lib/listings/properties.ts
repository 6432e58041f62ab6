import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { media, properties } from "../../db/schema";
import type { z } from "zod";
import { eventUserId, type Actor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { forbidden, invalid, notFound } from "../errors/domain-errors";
import { recordEvent } from "../outbox/record-event";
import { reindexProperties } from "../search/index-listings";
import { loadTenant } from "../tenants/load-tenant";
import { ownsProperty } from "./access";
import { getPropertyInTenant, listingsOfProperty, presentProperty } from "./property-in-tenant";
import { insertMedia, propertyColumns, sameMedia, validatePropertyRefs } from "./property-values";
import { stableJson } from "../util/stable-json";
import { CreatePropertySchema, UpdatePropertySchema, type CreateListingInput, type UpdateListingInput } from "./schemas";
import type { serializeProperty, PropertyWithListings } from "./serialize";
import { insertListing, patchListing, type WriteCtx } from "./write-listing";
import { inTenantTransaction } from "../../db/transaction";

/** `POST /properties`: the property, its photos and its nested listings, in one transaction. */
export async function createProperty({ db, actor }: MemberCtx, input: unknown): Promise<PropertyWithListings> {
  const data = CreatePropertySchema.parse(input);
  const withId = data.listings.findIndex((l) => "id" in l);
  if (withId >= 0) throw invalid(`listings.${withId}.id: a new property has no listings yet; omit id to create one.`);
  if (actor.access === "restricted" && data.property.assignedToId && data.property.assignedToId !== actor.userId) {
    throw forbidden("property.assignedToId: a restricted key can only assign properties to its own member.");
  }
  return inTenantTransaction(db, actor.tenantId, (tx) => writeNewProperty(tx, actor, data));
}

/**
 * A new property with its listings, events and search documents, inside the caller's tenant
 * transaction, for any actor: a member through the API, or lead processing capturing an owner's
 * property (no creator).
 */
export async function writeNewProperty(tx: Tx, actor: Actor, data: z.output<typeof CreatePropertySchema>): Promise<PropertyWithListings> {
  const tenant = await loadTenant(tx, actor.tenantId);
  await validatePropertyRefs(tx, tenant.id, tenant.settings, data.property);
  const cols = propertyColumns(data.property, data.location);
  const member = actor.kind === "member" ? actor : null;
  const [property] = await tx
    .insert(properties)
    .values({
      ...cols,
      type: data.property.type,
      tenantId: tenant.id,
      createdById: member?.userId ?? null,
      assignedToId: cols.assignedToId ?? (member?.access === "restricted" ? member.userId : null),
      // The app's clock, like listings and events, not the transaction's start time.
      createdAt: new Date(),
      updatedAt: new Date(),
    })
    .returning();
  await insertMedia(tx, tenant.id, property.id, data.property.media ?? []);
  const c: WriteCtx = { tx, actor, tenant };
  const presented = await presentProperty(tx, actor, property);
  await recordEvent(tx, propertyEvent(c, "property.created", property.id, presented.property));
  for (const [i, item] of data.listings.entries()) await insertListing(c, property, item as CreateListingInput, `listings.${i}.`);
  await reindexProperties(tx, tenant.id, [property.id], tenant.settings);
  return presentProperty(tx, actor, property);
}

/** `PATCH /properties/{id}`: property fields, location, and nested listing creates/updates. */
export async function updateProperty({ db, actor }: MemberCtx, { id: propertyId, body: input }: { id: string; body: unknown }): Promise<PropertyWithListings> {
  const data = UpdatePropertySchema.parse(input);
  if (!data.property && !data.location && !data.listings) throw invalid("Send property, location or listings to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const current = await getPropertyInTenant(tx, tenant.id, propertyId, true);
    // Same answer as GET: a restricted key does not learn that another broker's property exists.
    if (!ownsProperty(actor, current)) throw notFound(`Property ${propertyId} not found.`);
    if (actor.access === "restricted" && data.property?.assignedToId !== undefined && data.property.assignedToId !== actor.userId) {
      throw forbidden("property.assignedToId: a restricted key cannot hand a property to another member.");
    }
    await validatePropertyRefs(tx, tenant.id, tenant.settings, data.property ?? {});
    const c: WriteCtx = { tx, actor, tenant };
    const before = await presentProperty(tx, actor, current);

    const cols = propertyColumns(data.property, data.location);
    const colsChanged = Object.entries(cols).some(([k, v]) => stableJson(current[k as keyof typeof current]) !== stableJson(v));
    const mediaChanged = data.property?.media !== undefined && !sameMedia(before.property.media, data.property.media);
    let property = current;
    // Resending what is stored changes nothing and notifies nobody.
    if (colsChanged || mediaChanged) {
      [property] = await tx
        .update(properties)
        .set({ ...cols, updatedAt: new Date() })
        .where(and(eq(properties.id, current.id), eq(properties.tenantId, tenant.id)))
        .returning();
      if (mediaChanged && data.property?.media) {
        await tx.delete(media).where(and(eq(media.tenantId, tenant.id), eq(media.propertyId, current.id)));
        await insertMedia(tx, tenant.id, current.id, data.property.media);
      }
      const after = (await presentProperty(tx, actor, property)).property;
      await recordEvent(tx, propertyEvent(c, "property.updated", property.id, after, before.property));
    }

    const existing = new Map((await listingsOfProperty(tx, tenant.id, current.id)).map((l) => [l.id, l]));
    for (const [i, item] of (data.listings ?? []).entries()) {
      const path = `listings.${i}.`;
      if ("id" in item) {
        const target = existing.get(item.id);
        if (!target) throw invalid(`${path}id: listing ${item.id} is not a listing of property ${current.id}.`);
        const { id: _id, ...changes } = item;
        existing.set(item.id, await patchListing(c, property, target, changes as UpdateListingInput, path));
      } else {
        await insertListing(c, property, item as CreateListingInput, path);
      }
    }
    // Property fields, photos and typology data feed every listing's search document.
    await reindexProperties(tx, tenant.id, [current.id], tenant.settings);
    return presentProperty(tx, actor, property);
  });
}

/** `GET /properties/{id}`: restricted keys read only their own properties (owner data inside). */
export async function getProperty({ db, actor }: MemberCtx, propertyId: string): Promise<PropertyWithListings> {
  const p = await getPropertyInTenant(db, actor.tenantId, propertyId);
  if (!ownsProperty(actor, p)) throw notFound(`Property ${propertyId} not found.`);
  return presentProperty(db, actor, p);
}

function propertyEvent(
  c: WriteCtx,
  eventName: "property.created" | "property.updated",
  id: string,
  property: ReturnType<typeof serializeProperty>,
  old: ReturnType<typeof serializeProperty> | null = null,
) {
  return { tenantId: c.tenant.id, eventName, entityType: "property", entityId: id, userId: eventUserId(c.actor), data: { property }, old };
}
