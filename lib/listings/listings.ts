import { and, count, desc, eq, getTableColumns, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { listings, properties, type ListingRow, type PropertyRow } from "../../db/schema";
import type { MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { forbidden, invalid, notFound } from "../errors/domain-errors";
import { recordEvent } from "../outbox/record-event";
import { PageQuery } from "../schemas/paging";
import { reindexListings } from "../search/index-listings";
import { bumpSearchVersion } from "../search/index-version";
import { noteIndexed } from "../search/index-sync";
import { loadTenant } from "../tenants/load-tenant";
import { canReadListing, canWriteListing, tenantListingsWhere } from "./access";
import { UpdateListingSchema } from "./schemas";
import { serializeListing, type DeletedListingSchema, type Listing, type ListingPageSchema } from "./serialize";
import { listingEvent, patchListing } from "./write-listing";
import { inTenantTransaction } from "../../db/transaction";

export const ListListingsQuery = z
  .strictObject({
    ...PageQuery,
    type: z.enum(["sale", "rental"]).optional(),
    stage: z.string().min(1).max(48).optional(),
    visibility: z.enum(["public", "private"]).optional(),
    propertyId: z.uuid().optional().meta({ description: "Only listings of this property." }),
  })
  .meta({ id: "ListListingsQuery" });

/** `GET /listings`: newest first, from the relational store, with the actor's access applied. */
export async function listListings({ db, actor }: MemberCtx, q: z.infer<typeof ListListingsQuery>): Promise<z.infer<typeof ListingPageSchema>> {
  const filters: (SQL | undefined)[] = [
    tenantListingsWhere(actor),
    q.type ? eq(listings.type, q.type) : undefined,
    q.stage ? eq(listings.stage, q.stage) : undefined,
    q.visibility ? eq(listings.visibility, q.visibility) : undefined,
    q.propertyId ? eq(listings.propertyId, q.propertyId) : undefined,
  ];
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(getTableColumns(listings))
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .where(where)
      .orderBy(desc(listings.createdAt), desc(listings.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(listings).innerJoin(properties, eq(properties.id, listings.propertyId)).where(where),
  ]);
  return { items: rows.map(serializeListing), total, page: q.page, pageSize: q.pageSize };
}

async function loadListing(db: DbOrTx, actor: MemberActor, id: string, forUpdate = false): Promise<{ l: ListingRow; p: PropertyRow }> {
  const q = db
    .select({ l: listings, p: properties })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(eq(listings.id, id), eq(listings.tenantId, actor.tenantId), eq(properties.tenantId, actor.tenantId)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update", { of: listings }) : await q;
  // A listing the actor may not read answers exactly like one that does not exist.
  if (!row || !canReadListing(actor, row.p, row.l)) throw notFound(`Listing ${id} not found.`);
  return row;
}

export async function getListing({ db, actor }: MemberCtx, id: string): Promise<Listing> {
  return serializeListing((await loadListing(db, actor, id)).l);
}

export async function updateListing({ db, actor }: MemberCtx, { id, body: input }: { id: string; body: unknown }): Promise<Listing> {
  if (input && typeof input === "object" && "translations" in input) {
    throw invalid(
      "translations: PATCH /listings/{id} does not accept translations; send them in a listings[] item (with this listing's id) " +
        "to PATCH /api/v1/real-estate/properties/{propertyId}.",
    );
  }
  const data = UpdateListingSchema.parse(input);
  if (Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { l, p } = await loadListing(tx, actor, id, true);
    if (!canWriteListing(actor, p, l)) throw forbidden("This key can change only listings of properties assigned to or created by its member.");
    const tenant = await loadTenant(tx, actor.tenantId);
    const row = await patchListing({ tx, actor, tenant }, p, l, data, "");
    if (row !== l) await reindexListings(tx, tenant.id, [row.id], tenant.settings);
    return serializeListing(row);
  });
}

export async function deleteListing({ db, actor }: MemberCtx, id: string): Promise<z.infer<typeof DeletedListingSchema>> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { l, p } = await loadListing(tx, actor, id, true);
    if (!canWriteListing(actor, p, l)) throw forbidden("This key can delete only listings of properties assigned to or created by its member.");
    const tenant = await loadTenant(tx, actor.tenantId);
    await tx.delete(listings).where(and(eq(listings.id, l.id), eq(listings.tenantId, actor.tenantId)));
    // The search document went with the row (foreign key); an external engine hears of it too.
    noteIndexed(tx, actor.tenantId, [l.id]);
    await bumpSearchVersion(tx, actor.tenantId);
    await recordEvent(tx, listingEvent({ tx, actor, tenant }, "listing.deleted", l, { listing: serializeListing(l) }));
    return { id: l.id, deleted: true as const };
  });
}
