import { and, asc, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { cmsCollections, type CmsCollectionRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { siteInTenant } from "../sites/sites";
import { CreateCollectionSchema, UpdateCollectionSchema, serializeCollection, type CmsCollectionListSchema, type DeletedCmsSchema } from "./cms-schemas";
import { tenantPagesChanged } from "../page-cache/invalidate";

/** The tenant's CMS collections of one of its sites (`/api/v1/sites/{siteId}/cms/collections`). */
export async function listCollections(ctx: MemberCtx, siteId: string): Promise<z.infer<typeof CmsCollectionListSchema>> {
  await siteInTenant(ctx.db, ctx.tenantId, siteId);
  const rows = await ctx.db
    .select()
    .from(cmsCollections)
    .where(and(eq(cmsCollections.tenantId, ctx.tenantId), eq(cmsCollections.siteId, siteId)))
    .orderBy(asc(cmsCollections.createdAt), asc(cmsCollections.id));
  return { items: rows.map(serializeCollection) };
}

export async function createCollection(ctx: MemberCtx, { siteId, body }: { siteId: string; body: unknown }) {
  const data = CreateCollectionSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    await siteInTenant(tx, ctx.tenantId, siteId);
    await assertSlugFree(tx, siteId, data.slug);
    const [row] = await tx
      .insert(cmsCollections)
      .values({ ...data, tenantId: ctx.tenantId, siteId })
      .returning();
    return serializeCollection(row);
  });
}

export async function updateCollection(ctx: MemberCtx, { siteId, id, body }: { siteId: string; id: string; body: unknown }) {
  const data = UpdateCollectionSchema.parse(body);
  if (!Object.keys(data).length) throw invalid("Send at least one field to change.");
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    const current = await collectionInTenant(tx, ctx.tenantId, siteId, id);
    if (data.slug && data.slug !== current.slug) await assertSlugFree(tx, siteId, data.slug, id);
    const [row] = await tx
      .update(cmsCollections)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(cmsCollections.id, id), eq(cmsCollections.tenantId, ctx.tenantId)))
      .returning();
    return serializeCollection(row);
  });
}

/** Deletes the collection with its entries. */
export async function deleteCollection(ctx: MemberCtx, { siteId, id }: { siteId: string; id: string }): Promise<z.infer<typeof DeletedCmsSchema>> {
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tenantPagesChanged(tx, [ctx.tenantId]);
    await collectionInTenant(tx, ctx.tenantId, siteId, id);
    await tx.delete(cmsCollections).where(and(eq(cmsCollections.id, id), eq(cmsCollections.tenantId, ctx.tenantId)));
    return { id, deleted: true as const };
  });
}

export async function collectionInTenant(db: DbOrTx, tenantId: string, siteId: string, id: string): Promise<CmsCollectionRow> {
  const [row] = await db
    .select()
    .from(cmsCollections)
    .where(and(eq(cmsCollections.id, id), eq(cmsCollections.tenantId, tenantId), eq(cmsCollections.siteId, siteId)))
    .limit(1);
  if (!row) throw notFound(`CMS collection ${id} not found on this site.`);
  return row;
}

/** Slugs are unique per site (they are URL segments); the unique index closes the race. */
async function assertSlugFree(db: DbOrTx, siteId: string, slug: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: cmsCollections.id })
    .from(cmsCollections)
    .where(and(eq(cmsCollections.siteId, siteId), eq(cmsCollections.slug, slug), exceptId ? ne(cmsCollections.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw conflict(`slug: the site already has a collection '${slug}'; choose another slug.`, "slug_taken");
}
