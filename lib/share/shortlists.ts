import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { shortlists, type ShortlistRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { deletedSchema, PageQuery, pageSchema } from "../schemas/paging";
import { assertDealInTenant, assertListingsReadable, createdByVisible } from "./tenant-refs";

const ListingIds = z
  .array(z.uuid().transform((v) => v.toLowerCase()))
  .max(100)
  .refine((l) => new Set(l).size === l.length, "must not repeat a listing")
  .meta({ description: "Ordered listing ids of the tenant (at most 100)." });

export const CreateShortlistSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().max(2000).nullable().optional(),
    listingIds: ListingIds.default([]),
    dealId: z.uuid().nullable().optional(),
  })
  .meta({ id: "ShortlistCreate" });

export const UpdateShortlistSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().max(2000).nullable(),
    listingIds: ListingIds,
    dealId: z.uuid().nullable(),
  })
  .partial()
  .meta({ id: "ShortlistUpdate" });

export const ShortlistSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    listingIds: z.array(z.uuid()),
    dealId: z.uuid().nullable(),
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Shortlist" });
export type Shortlist = z.infer<typeof ShortlistSchema>;

/** `listShortlists`. */
export const ShortlistPageSchema = pageSchema(ShortlistSchema, "ShortlistPage");

/** `deleteShortlist` (the same answer as a deleted visit itinerary). */
export const DeletedShortlistSchema = deletedSchema("DeletedShareEntity");

export const ListShortlistsQuery = z.strictObject({ ...PageQuery, dealId: z.uuid().optional() });

const present = (r: ShortlistRow): Shortlist => ({
  id: r.id,
  name: r.name,
  description: r.description,
  listingIds: r.listingIds,
  dealId: r.dealId,
  createdById: r.createdById,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function loadShortlist({ db, actor }: MemberCtx, id: string): Promise<ShortlistRow> {
  const [row] = await db
    .select()
    .from(shortlists)
    .where(and(eq(shortlists.id, id), eq(shortlists.tenantId, actor.tenantId)))
    .limit(1);
  if (!row || !createdByVisible(actor, row.createdById)) throw notFound(`Shortlist ${id} not found.`);
  return row;
}

export async function listShortlists({ db, actor }: MemberCtx, q: z.infer<typeof ListShortlistsQuery>): Promise<z.infer<typeof ShortlistPageSchema>> {
  const where = and(
    eq(shortlists.tenantId, actor.tenantId),
    actor.access === "broad" ? undefined : eq(shortlists.createdById, actor.userId),
    q.dealId ? eq(shortlists.dealId, q.dealId) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(shortlists)
      .where(where)
      .orderBy(desc(shortlists.createdAt), desc(shortlists.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(shortlists).where(where),
  ]);
  return { items: rows.map(present), total, page: q.page, pageSize: q.pageSize };
}

export async function getShortlist(ctx: MemberCtx, id: string): Promise<Shortlist> {
  return present(await loadShortlist(ctx, id));
}

export async function createShortlist(ctx: MemberCtx, input: unknown): Promise<Shortlist> {
  const data = CreateShortlistSchema.parse(input);
  const { actor } = ctx;
  return inTenantTransaction(ctx.db, actor.tenantId, async (tx) => {
    await assertListingsReadable(tx, actor, data.listingIds, "listingIds");
    await assertDealInTenant(tx, actor.tenantId, data.dealId);
    const [row] = await tx
      .insert(shortlists)
      .values({
        tenantId: actor.tenantId,
        name: data.name,
        description: data.description ?? null,
        listingIds: data.listingIds,
        dealId: data.dealId ?? null,
        createdById: actor.userId,
      })
      .returning();
    return present(row);
  });
}

export async function updateShortlist(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Shortlist> {
  const data = UpdateShortlistSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  const { actor } = ctx;
  return inTenantTransaction(ctx.db, actor.tenantId, async (tx) => {
    await loadShortlist({ ...ctx, db: tx }, id);
    if (data.listingIds) await assertListingsReadable(tx, actor, data.listingIds, "listingIds");
    await assertDealInTenant(tx, actor.tenantId, data.dealId);
    const [row] = await tx
      .update(shortlists)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(shortlists.id, id), eq(shortlists.tenantId, actor.tenantId)))
      .returning();
    return present(row);
  });
}

export async function deleteShortlist(ctx: MemberCtx, id: string): Promise<z.infer<typeof DeletedShortlistSchema>> {
  return inTenantTransaction(ctx.db, ctx.actor.tenantId, async (tx) => {
    await loadShortlist({ ...ctx, db: tx }, id);
    await tx.delete(shortlists).where(and(eq(shortlists.id, id), eq(shortlists.tenantId, ctx.actor.tenantId)));
    return { id, deleted: true as const };
  });
}
