import { fieldByName, GEO_FIELD, LAT_COLUMN, LNG_COLUMN } from "../fields";
import { PRICE_FIELDS } from "../price-visibility";
import { DEFAULT_SORTING_FIELD, INTERNAL_FIELD_NAMES, publicPriceField } from "./collection-schema";

/** Who may see a document: the same values `search_documents` keeps in its access columns. */
export type DocumentAccess = {
  tenantId: string;
  assignedToId: string | null;
  createdById: string | null;
  propertyCreatedById: string | null;
  networkIds: string[];
  /** In the tenant's active stage (partners see shared listings only then). */
  onAir?: boolean;
};

export type TypesenseDocument = Record<string, unknown> & { id: string; tenant_id: string };

/**
 * A stored search document (`buildSearchDocument`'s output) plus its access fields -> the Typesense document.
 *
 * - `id` is the listing id, as a string.
 * - `location` is `[lat, lng]`, only when both are present; `location_latitude/longitude` are not stored
 *   (the hit mapper restores them from `location`).
 * - Registry fields: a null or missing value is dropped (they are all optional); numeric strings become numbers,
 *   `"true"/"false"` booleans, numbers in string fields strings, so `dirty_values` never has to guess.
 *   `createdAt` is required (it is the default sorting field): a document without it is refused here.
 * - Other keys (`priceFormatted`, `imageUrls`...) are stored as they are, nulls included, so a hit's document
 *   is the same object the PostgreSQL engine returns. They are not indexed.
 * - The access fields come only from `access`: keys of the same name in `doc` are dropped, so a document can
 *   never carry its own `tenant_id` or widen its own visibility.
 * - `price_public` (and the other public price fields) repeat the price fields only when `priceVisibility` is
 *   `public`; they too are never taken from `doc`.
 */
export function toTypesenseDoc(doc: Record<string, unknown>, access: DocumentAccess): TypesenseDocument {
  if (doc.id === undefined || doc.id === null || String(doc.id) === "") throw new Error("toTypesenseDoc: the document has no id");
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(doc)) {
    if (key === "id" || key === LAT_COLUMN || key === LNG_COLUMN || key === GEO_FIELD || INTERNAL_FIELD_NAMES.includes(key)) continue;
    const field = fieldByName(key);
    if (!field) {
      out[key] = raw;
      continue;
    }
    const v = coerce(field.type, raw);
    if (v !== undefined) out[key] = v;
  }
  if (out[DEFAULT_SORTING_FIELD] === undefined) {
    throw new Error(`toTypesenseDoc: document ${String(doc.id)} has no ${DEFAULT_SORTING_FIELD} (required by the collection)`);
  }
  if (doc.priceVisibility === "public") {
    for (const name of PRICE_FIELDS) if (out[name] !== undefined) out[publicPriceField(name)] = out[name];
  }
  const lat = toNumber(doc[LAT_COLUMN]);
  const lng = toNumber(doc[LNG_COLUMN]);
  if (lat !== undefined && lng !== undefined) out[GEO_FIELD] = [lat, lng];

  out.id = String(doc.id);
  out.tenant_id = access.tenantId;
  if (access.assignedToId) out.assigned_to_id = access.assignedToId;
  if (access.createdById) out.created_by_id = access.createdById;
  if (access.propertyCreatedById) out.property_created_by_id = access.propertyCreatedById;
  out.network_ids = [...access.networkIds];
  out.on_air = Boolean(access.onAir);
  return out as TypesenseDocument;
}

function coerce(type: string, v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  switch (type) {
    case "string":
      return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
    case "string[]":
      return Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined).map(String) : undefined;
    case "int32":
    case "int64":
    case "float":
      return toNumber(v);
    case "bool":
      return typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : undefined;
    default:
      return v;
  }
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
