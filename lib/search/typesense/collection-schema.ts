import type { Client } from "typesense";
import type { CollectionFieldSchema } from "typesense/lib/Typesense/Collection";
import type { CollectionCreateSchema } from "typesense/lib/Typesense/Collections";
import { Errors } from "typesense";
import { fieldByName, GEO_FIELD, SEARCH_FIELDS } from "../fields";
import { PRICE_FIELDS } from "../price-visibility";

/** Required and the collection's `default_sorting_field` (Typesense wants it non-optional and sortable). */
export const DEFAULT_SORTING_FIELD = "createdAt";

/**
 * Fields the scope filter needs and the user's `filter_by` never sees: they are not in `FILTER_SCHEMA`, so the
 * parser answers "unknown field" for `tenant_id:...`, and the hit mapper strips them from documents.
 */
export const ACCESS_FIELDS: CollectionFieldSchema[] = [
  { name: "tenant_id", type: "string", facet: true },
  { name: "assigned_to_id", type: "string", optional: true },
  { name: "created_by_id", type: "string", optional: true },
  { name: "property_created_by_id", type: "string", optional: true },
  { name: "network_ids", type: "string[]", optional: true },
  { name: "on_air", type: "bool", optional: true },
];

export const ACCESS_FIELD_NAMES: readonly string[] = ACCESS_FIELDS.map((f) => f.name);

/**
 * `price_public` and the like: the price fields again, only on documents whose price is public.
 * Typesense cannot sort or facet on "the price unless it is hidden from this reader", so searches
 * that reach listings whose private price the reader may not see sort and facet on these instead
 * (see price-visibility.ts). Like the access fields they are never returned nor user-filterable.
 */
export const publicPriceField = (name: string) => `${name}_public`;
export const PUBLIC_PRICE_FIELDS: CollectionFieldSchema[] = PRICE_FIELDS.map((name) => ({
  name: publicPriceField(name),
  type: "float",
  facet: Boolean(fieldByName(name)?.facet),
  optional: true,
}));
export const PUBLIC_PRICE_FIELD_NAMES: readonly string[] = PUBLIC_PRICE_FIELDS.map((f) => f.name);
/** Stored for the engine only: dropped from every hit document. */
export const INTERNAL_FIELD_NAMES: readonly string[] = [...ACCESS_FIELD_NAMES, ...PUBLIC_PRICE_FIELD_NAMES];

/**
 * The collection's fields, derived from the one registry (`SEARCH_FIELDS`): same names, same types, `facet` as
 * registered, strings sortable only when marked (numbers and bools are sortable by default in Typesense). Every
 * field is optional except `createdAt`. `location` is the geopoint built from `location_latitude/longitude`.
 *
 * `id` is NOT declared: it is Typesense's implicit document id, and declaring it only earns the server warning
 * "Collection schema cannot contain a field with name `id`. Ignoring field" (typesense#460, #1668). It is still
 * filterable as `id:...`, which is what `FILTER_SCHEMA.id` maps to.
 *
 * No `token_separators`, `symbols_to_index`, `stem` or `locale`: the tokenizer must stay the default one that
 * `normalizeTokens` reproduces (search-language.md §0), or string filters would mean different things on the two
 * engines.
 */
export function collectionFields(): CollectionFieldSchema[] {
  const fields: CollectionFieldSchema[] = SEARCH_FIELDS.map((f) => {
    const field: CollectionFieldSchema = { name: f.name, type: f.type, facet: Boolean(f.facet) };
    if (f.name !== DEFAULT_SORTING_FIELD) field.optional = true;
    if ((f.type === "string" || f.type === "string[]") && f.sort) field.sort = true;
    return field;
  });
  fields.push({ name: GEO_FIELD, type: "geopoint", optional: true });
  fields.push(...ACCESS_FIELDS.map((f) => ({ ...f })));
  fields.push(...PUBLIC_PRICE_FIELDS.map((f) => ({ ...f })));
  return fields;
}

export function collectionSchema(name: string): CollectionCreateSchema {
  return { name, fields: collectionFields(), default_sorting_field: DEFAULT_SORTING_FIELD };
}

export type EnsureResult = {
  created: boolean;
  /** Fields the registry gained since the collection was created, added in place (all optional). */
  addedFields: string[];
  /** Fields whose type on the server differs from the registry: they need a re-create and a re-index. */
  mismatchedFields: { name: string; expected: string; actual: string }[];
};

/**
 * Creates the collection when it does not exist. When it does, adds the (optional) fields the registry gained
 * since and reports type mismatches without touching them (changing a type means re-creating the collection
 * and re-indexing, which is an operator decision).
 */
export async function ensureCollection(client: Client, name: string): Promise<EnsureResult> {
  let existing: { fields?: CollectionFieldSchema[] } | undefined;
  try {
    existing = await client.collections(name).retrieve();
  } catch (e) {
    if (!(e instanceof Errors.ObjectNotFound)) throw e;
  }
  if (!existing) {
    try {
      await client.collections().create(collectionSchema(name));
      return { created: true, addedFields: [], mismatchedFields: [] };
    } catch (e) {
      // Another process created it between our retrieve and create: fall through to the comparison.
      if (!(e instanceof Errors.ObjectAlreadyExists)) throw e;
      existing = await client.collections(name).retrieve();
    }
  }
  const have = new Map((existing.fields ?? []).map((f) => [f.name, f]));
  const wanted = collectionFields();
  const missing = wanted.filter((f) => !have.has(f.name));
  const mismatchedFields = wanted
    .filter((f) => have.has(f.name) && have.get(f.name)!.type !== f.type)
    .map((f) => ({ name: f.name, expected: String(f.type), actual: String(have.get(f.name)!.type) }));
  if (missing.length) {
    await client.collections(name).update({ fields: missing.map((f) => ({ ...f, optional: true })) });
  }
  return { created: false, addedFields: missing.map((f) => f.name), mismatchedFields };
}
