import { and, asc, count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { cmsCollections, cmsEntries, type CmsCollectionRow, type SiteRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import {
  type EntriesQuery,
  serializeCollection,
  serializeEntry,
  type CmsEntryPageSchema,
  type PublicCmsCollectionListSchema,
  type PublicCmsEntrySchema,
} from "./cms-schemas";

/** The public CMS of a site (spec 2 §2.6): its collections, and only published entries. */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const collectionNotFound = () => notFound("Collection not found");
const entryNotFound = () => notFound("Entry not found");

export async function publicCollections(db: DbOrTx, site: SiteRow): Promise<z.infer<typeof PublicCmsCollectionListSchema>> {
  const rows = await db
    .select()
    .from(cmsCollections)
    .where(and(eq(cmsCollections.siteId, site.id), eq(cmsCollections.tenantId, site.tenantId)))
    .orderBy(asc(cmsCollections.createdAt), asc(cmsCollections.id));
  return { collections: rows.map(serializeCollection) };
}

async function collectionBySlug(db: DbOrTx, site: SiteRow, slug: string): Promise<CmsCollectionRow> {
  if (slug.length > 120 || !SLUG.test(slug)) throw collectionNotFound();
  const [row] = await db
    .select()
    .from(cmsCollections)
    .where(and(eq(cmsCollections.siteId, site.id), eq(cmsCollections.tenantId, site.tenantId), eq(cmsCollections.slug, slug)))
    .limit(1);
  if (!row) throw collectionNotFound();
  return row;
}

export async function publicCollection(db: DbOrTx, site: SiteRow, slug: string) {
  return serializeCollection(await collectionBySlug(db, site, slug));
}

/** Published entries, newest publication first. */
export async function publicEntries(db: DbOrTx, site: SiteRow, slug: string, q: z.infer<typeof EntriesQuery>): Promise<z.infer<typeof CmsEntryPageSchema>> {
  const c = await collectionBySlug(db, site, slug);
  const where = and(eq(cmsEntries.collectionId, c.id), eq(cmsEntries.tenantId, site.tenantId), eq(cmsEntries.status, "published"));
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(cmsEntries).where(where).orderBy(desc(cmsEntries.publishedAt), desc(cmsEntries.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(cmsEntries).where(where),
  ]);
  return { entries: rows.map(serializeEntry), total: Number(n), limit: q.limit, offset: q.offset };
}

export async function publicEntry(db: DbOrTx, site: SiteRow, slug: string, entrySlug: string): Promise<z.infer<typeof PublicCmsEntrySchema>> {
  const c = await collectionBySlug(db, site, slug);
  if (entrySlug.length > 120 || !SLUG.test(entrySlug)) throw entryNotFound();
  const [row] = await db
    .select()
    .from(cmsEntries)
    .where(and(eq(cmsEntries.collectionId, c.id), eq(cmsEntries.tenantId, site.tenantId), eq(cmsEntries.slug, entrySlug), eq(cmsEntries.status, "published")))
    .limit(1);
  if (!row) throw entryNotFound();
  return { entry: serializeEntry(row) };
}
