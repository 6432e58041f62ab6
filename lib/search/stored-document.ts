import { sql, type SQL } from "drizzle-orm";
import { jsonColumn } from "../../db/rows";
import { DERIVED_FIELDS, withDerivedFields } from "./build-document";
import { columnOf, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS } from "./fields";

/**
 * A search document is stored as its typed columns (which filters, facets and sorts read anyway)
 * plus `search_texts.extras`: only what the columns cannot give back exactly. Keeping the whole
 * document as JSON beside its columns cost 1.6 KB a listing, a third of the search tables
 * (docs/decisions.md). Reading a document is `documentFromRow` over `docColumns`.
 */

/** Stored as columns: every search field, the coordinates, and the id (the row's key). */
const IN_COLUMNS = new Set<string>(["id", "location_latitude", "location_longitude", ...SEARCH_FIELDS.map((f) => f.name)]);
const DERIVED = new Set<string>(DERIVED_FIELDS);
/** Values an extra field has when it is absent from `extras`. */
const DEFAULTS: Record<string, unknown> = { imageUrls: [], videoUrl: null, tourUrl: null };
/** Each search field with its column and kind of value, worked out once. */
const FIELD_COLUMNS = SEARCH_FIELDS.map((f) => ({
  name: f.name,
  column: columnOf(f.name),
  float: f.type === "float",
  numeric: f.type === "int32" || f.type === "int64" || f.type === "float",
}));
const FLOATS = FIELD_COLUMNS.filter((f) => f.float);

/**
 * A float column is `real` (Typesense compares floats in 32 bits, and so do our filters): an
 * integer up to 2^24 comes back from it exactly; any other value is kept exactly in `extras`.
 */
const exactInReal = (v: number) => Number.isInteger(v) && Math.abs(v) <= 2 ** 24;

/** What a document needs beside its columns (null when nothing). */
export function documentExtras(doc: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (IN_COLUMNS.has(k) || DERIVED.has(k)) continue;
    if (k in DEFAULTS && JSON.stringify(v) === JSON.stringify(DEFAULTS[k])) continue;
    out[k] = v;
  }
  for (const { name } of FLOATS) {
    const v = doc[name];
    if (typeof v === "number" && !exactInReal(v)) out[name] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** The columns of `search_index` that `documentFromRow` reads. */
export const DOC_COLUMN_NAMES: readonly string[] = ["listing_id", LAT_COLUMN, LNG_COLUMN, ...FIELD_COLUMNS.map((f) => f.column), "extras"];

const REAL_COLUMNS = new Set(FLOATS.map((f) => f.column));

/**
 * `DOC_COLUMN_NAMES` of `search_index` as `alias`, for a select list. The `real` columns come as
 * `float8`, whose text is exact for the values read from them (integers up to 2^24) whatever the
 * session's `extra_float_digits`.
 */
export function docColumns(alias: string): SQL {
  return sql.raw(DOC_COLUMN_NAMES.map((c) => (REAL_COLUMNS.has(c) ? `${alias}.${c}::float8 as ${c}` : `${alias}.${c}`)).join(", "));
}

/** The document as `buildSearchDocument` made it, from a row of `docColumns`. */
export function documentFromRow(row: Record<string, unknown>): Record<string, unknown> {
  const extras = row.extras == null ? null : jsonColumn<Record<string, unknown>>(row.extras);
  const doc: Record<string, unknown> = { id: row.listing_id, location_latitude: num(row[LAT_COLUMN]), location_longitude: num(row[LNG_COLUMN]) };
  for (const f of FIELD_COLUMNS) {
    const v = row[f.column] ?? null;
    doc[f.name] = f.numeric ? num(v) : v;
  }
  for (const [k, v] of Object.entries(DEFAULTS)) doc[k] = Array.isArray(v) ? [...v] : v;
  if (extras) for (const k in extras) doc[k] = extras[k];
  return inJsonbOrder(withDerivedFields(doc));
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Keys in the order PostgreSQL's `jsonb` keeps them (shorter first, then bytewise), the order
 * documents had when they were stored as `jsonb`, so answers keep their shape.
 */
export function inJsonbOrder(doc: Record<string, unknown>): Record<string, unknown> {
  const given = Object.keys(doc);
  const signature = given.join(",");
  let keys = ORDERS.get(signature);
  if (!keys) {
    // Bytewise for equal lengths: field names are ASCII, where UTF-16 order is byte order.
    keys = [...given].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    if (ORDERS.size < 100) ORDERS.set(signature, keys);
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = doc[k];
  return out;
}

/** Key orders by the set of keys given (documents have a handful of shapes). */
const ORDERS = new Map<string, string[]>();
