import { and, count, desc, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { cmsEntries, type CmsEntryRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { CreateEntrySchema, type TenantEntriesQuery, UpdateEntrySchema, serializeEntry, type CmsEntryPageSchema, type DeletedCmsSchema } from "./cms-schemas";
import { collectionInTenant } from "./collections";
import { checkEntryFields } from "./entry-fields";
import { tenantPagesChanged } from "../page-cache/invalidate";

type Where = { siteId: string; collectionId: string };

export async function listEntries(ctx: MemberCtx, w: Where, q: z.infer<typeof TenantEntriesQuery>): Promise<z.infer<typeof CmsEntryPageSchema>> {
  await collectionInTenant(ctx.db, ctx.tenantId, w.siteId, w.collectionId);
  const where = and(eq(cmsEntries.tenantId, ctx.tenantId), eq(cmsEntries.collectionId, w.collectionId), q.status ? eq(cmsEntries.status, q.status) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(cmsEntries).where(where).orderBy(desc(cmsEntries.updatedAt), desc(cmsEntries.id)).limit(q.limit).offset(q.offset),
    ctx.db.select({ n: count() }).from(cmsEntries).where(where),
  ]);
  return { entries: rows.map(serializeEntry), total: Number(n), limit: q.limit, offset: q.offset };
}

export async function getEntry(ctx: MemberCtx, w: Where & { id: string }) {
  await collectionInTenant(ctx.db, ctx.tenantId, w.siteId, w.collectionId);
  return serializeEntry(await entryInTenant(ctx.db, ctx.tenantId, w.collectionId, w.id));
}

/** `publishedAt` is set when an entry is first published and kept afterwards (unpublishing keeps it). */
export async function createEntry(ctx: MemberCtx, w: Where & { body: unknown }) {
  const data = CreateEntrySchema.parse(w.body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    const collection = await collectionInTenant(tx, ctx.tenantId, w.siteId, w.collectionId);
    checkEntryFields(collection.fields, data.fields);
    await assertSlugFree(tx, w.collectionId, data.slug);
    const [row] = await tx
      .insert(cmsEntries)
      .values({ ...data, tenantId: ctx.tenantId, siteId: w.siteId, collectionId: w.collectionId, publishedAt: data.status === "published" ? new Date() : null })
      .returning();
    return serializeEntry(row);
  });
}

export async function updateEntry(ctx: MemberCtx, w: Where & { id: string; body: unknown }) {
  const data = UpdateEntrySchema.parse(w.body);
  if (!Object.keys(data).length) throw invalid("Send at least one field to change.");
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    const collection = await collectionInTenant(tx, ctx.tenantId, w.siteId, w.collectionId);
    const current = await entryInTenant(tx, ctx.tenantId, w.collectionId, w.id);
    if (data.fields) checkEntryFields(collection.fields, data.fields);
    if (data.slug && data.slug !== current.slug) await assertSlugFree(tx, w.collectionId, data.slug, w.id);
    const publishedAt = current.publishedAt ?? (data.status === "published" ? new Date() : null);
    const [row] = await tx
      .update(cmsEntries)
      .set({ ...data, publishedAt, updatedAt: new Date() })
      .where(and(eq(cmsEntries.id, w.id), eq(cmsEntries.tenantId, ctx.tenantId)))
      .returning();
    return serializeEntry(row);
  });
}

export async function deleteEntry(ctx: MemberCtx, w: Where & { id: string }): Promise<z.infer<typeof DeletedCmsSchema>> {
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    await collectionInTenant(tx, ctx.tenantId, w.siteId, w.collectionId);
    await entryInTenant(tx, ctx.tenantId, w.collectionId, w.id);
    await tx.delete(cmsEntries).where(and(eq(cmsEntries.id, w.id), eq(cmsEntries.tenantId, ctx.tenantId)));
    return { id: w.id, deleted: true as const };
  });
}

async function entryInTenant(db: DbOrTx, tenantId: string, collectionId: string, id: string): Promise<CmsEntryRow> {
  const [row] = await db
    .select()
    .from(cmsEntries)
    .where(and(eq(cmsEntries.id, id), eq(cmsEntries.tenantId, tenantId), eq(cmsEntries.collectionId, collectionId)))
    .limit(1);
  if (!row) throw notFound(`CMS entry ${id} not found in this collection.`);
  return row;
}

async function assertSlugFree(db: DbOrTx, collectionId: string, slug: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: cmsEntries.id })
    .from(cmsEntries)
    .where(and(eq(cmsEntries.collectionId, collectionId), eq(cmsEntries.slug, slug), exceptId ? ne(cmsEntries.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw conflict(`slug: the collection already has an entry '${slug}'; choose another slug.`, "slug_taken");
}
