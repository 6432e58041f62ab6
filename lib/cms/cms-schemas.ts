import { z } from "zod";
import type { CmsCollectionRow, CmsEntryRow } from "../../db/schema";
import { deletedSchema, itemsSchema } from "../schemas/paging";
import { reservedSlugReason } from "./reserved-slugs";

const Slug = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase letters and digits separated by single dashes, such as blog-posts");

/** A collection's slug is the first segment of its address on the site, so the site's own routes are not available. */
const CollectionSlug = Slug.superRefine((v, ctx) => {
  const reason = reservedSlugReason(v);
  if (reason) ctx.addIssue({ code: "custom", message: reason });
});

export const CMS_FIELD_TYPES = ["text", "richText", "number", "boolean", "date", "image", "url"] as const;

const FieldDef = z.strictObject({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,59}$/, "must start with a letter and use letters, digits and _ (at most 60)"),
  label: z.string().trim().min(1).max(120),
  type: z.enum(CMS_FIELD_TYPES),
  required: z.boolean().default(false),
});

const Fields = z
  .array(FieldDef)
  .max(100)
  .refine((l) => new Set(l.map((f) => f.id)).size === l.length, "field ids must be unique within the collection");

export const CreateCollectionSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    slug: CollectionSlug,
    templatePageId: z.string().trim().max(200).nullable().default(null),
    fields: Fields.default([]),
  })
  .meta({ id: "CreateCmsCollection" });
export const UpdateCollectionSchema = z
  .strictObject({ name: z.string().trim().min(1).max(120), slug: CollectionSlug, templatePageId: z.string().trim().max(200).nullable(), fields: Fields })
  .partial()
  .meta({ id: "UpdateCmsCollection" });

const Seo = z.strictObject({ title: z.string().trim().max(200).nullable().default(null), description: z.string().trim().max(500).nullable().default(null) });

export const CreateEntrySchema = z
  .strictObject({
    slug: Slug,
    status: z.enum(["draft", "published"]).default("draft"),
    fields: z.record(z.string(), z.unknown()).default({}),
    seo: Seo.nullable().default(null),
  })
  .meta({ id: "CreateCmsEntry" });
export const UpdateEntrySchema = z
  .strictObject({ slug: Slug, status: z.enum(["draft", "published"]), fields: z.record(z.string(), z.unknown()), seo: Seo.nullable() })
  .partial()
  .meta({ id: "UpdateCmsEntry" });

export const EntriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100, "must be at most 100").default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const TenantEntriesQuery = EntriesQuery.extend({ status: z.enum(["draft", "published"]).optional() });

export const CmsCollectionSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    templatePageId: z.string().nullable(),
    fields: z.array(z.object({ id: z.string(), label: z.string(), type: z.string(), required: z.boolean() })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "CmsCollection" });
export const CmsEntrySchema = z
  .object({
    id: z.uuid(),
    collectionId: z.uuid(),
    slug: z.string(),
    status: z.enum(["draft", "published"]),
    fields: z.record(z.string(), z.unknown()),
    seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }).nullable(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "CmsEntry" });

/** `listCollections` (tenant API). */
export const CmsCollectionListSchema = itemsSchema(CmsCollectionSchema);
/** `publicCollections` (sites API). */
export const PublicCmsCollectionListSchema = z.object({ collections: z.array(CmsCollectionSchema) });
/** `listEntries` and `publicEntries`. */
export const CmsEntryPageSchema = z
  .object({ entries: z.array(CmsEntrySchema), total: z.number(), limit: z.number(), offset: z.number() })
  .meta({ id: "CmsEntryPage" });
/** `publicEntry`. */
export const PublicCmsEntrySchema = z.object({ entry: CmsEntrySchema });
/** `deleteCollection` and `deleteEntry`. */
export const DeletedCmsSchema = deletedSchema();

export const serializeCollection = (c: CmsCollectionRow): z.infer<typeof CmsCollectionSchema> => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  templatePageId: c.templatePageId,
  fields: c.fields,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const serializeEntry = (e: CmsEntryRow): z.infer<typeof CmsEntrySchema> => ({
  id: e.id,
  collectionId: e.collectionId,
  slug: e.slug,
  status: e.status,
  fields: e.fields,
  seo: e.seo,
  publishedAt: e.publishedAt?.toISOString() ?? null,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

/** Public CMS reads without parameters still refuse unknown ones. */
export const NoCmsQuery = z.strictObject({});
