import { and, count, eq, getTableColumns, getTableName, inArray, SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { buildings, listings, media, networkListings, properties, searchDocuments, searchTexts, typologies, units } from "../../db/schema";
import { loadTenant, tenantSettingsOf } from "../tenants/load-tenant";
import { notFound } from "../errors/domain-errors";
import type { TenantSettings } from "../tenants/settings-schema";
import { buildSearchDocument, type UnitStats } from "./build-document";
import { columnOf, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, TEXT_WEIGHTS, tokensOf } from "./fields";
import { normalizeTokens, storedElements, storedTokens } from "./filter";
import { derivationAgrees } from "./derivation-check";
import { bumpSearchVersion } from "./index-version";
import { noteIndexed } from "./index-sync";
import { documentExtras } from "./stored-document";

const BATCH = 200;

/**
 * Rewrites the search documents of these listings of one tenant, in the caller's transaction,
 * so a change is searchable the moment it commits. Listings that no longer exist are removed.
 * The transaction must be opened with `inTransaction` (its after-commit work pushes the documents).
 */
export async function reindexListings(tx: DbOrTx, tenantId: string, listingIds: string[], settings?: TenantSettings): Promise<number> {
  const ids = [...new Set(listingIds)];
  noteIndexed(tx, tenantId, ids);
  // A document has ~135 columns: 200 rows stay under PostgreSQL's 65,535 bind parameters.
  if (ids.length > BATCH) {
    const s = settings ?? settingsOfBump(tenantId, await bumpSearchVersion(tx, tenantId));
    let n = 0;
    for (let i = 0; i < ids.length; i += BATCH) n += await reindexListings(tx, tenantId, ids.slice(i, i + BATCH), s);
    return n;
  }
  // The version bump comes first and alone: it takes the tenant's row lock, so two transactions
  // reindexing the same listing read its rows one after the other, and the later commit writes the
  // later document. Writers pass the settings they loaded; others take the ones the bump returns.
  const stored = await bumpSearchVersion(tx, tenantId);
  const tenantSettings = settings ?? settingsOfBump(tenantId, stored);
  if (!ids.length) return 0;
  const built = await buildDocuments(tx, tenantId, ids, tenantSettings);
  const gone = ids.filter((id) => !built.some((b) => b.listing.id === id));
  if (gone.length) {
    await tx.delete(searchDocuments).where(and(eq(searchDocuments.tenant_id, tenantId), inArray(searchDocuments.listing_id, gone)));
  }
  if (!built.length) return 0;
  const derive = await derivationAgrees(tx);
  const values = built.map(({ listing: l, property: p, doc, networkIds }) => {
    const { narrow, wide } = documentColumns(doc, derive);
    return {
      narrow: {
        ...narrow,
        listing_id: l.id,
        tenant_id: tenantId,
        assigned_to_id: p.assignedToId,
        created_by_id: l.createdById,
        property_created_by_id: p.createdById,
        network_ids: networkIds,
        on_air: l.stage === tenantSettings.listingWorkflow.activeStageId,
      },
      wide: { ...wide, listing_id: l.id, tenant_id: tenantId, extras: documentExtras(doc) },
    };
  });
  const narrow = values.map((v) => v.narrow);
  const wide = values.map((v) => v.wide);
  // One statement, one round trip: both upserts, the first as a data-modifying CTE (the texts'
  // foreign key to the documents is checked at the end of the statement, when both are in).
  await tx.execute(sql`with documents as (${upsertSql(searchDocuments, narrow)}) ${upsertSql(searchTexts, wide)}`);
  return values.length;
}

/**
 * The search documents of these listings of one tenant (those that exist), with what the index
 * rows keep beside them, from the listings and everything a document reads.
 */
export async function buildDocuments(tx: DbOrTx, tenantId: string, ids: string[], settings: TenantSettings) {
  // Sent together (one round trip on PostgreSQL): the listings, their properties' photos and their network shares.
  const [rows, mediaRows, shares] = await Promise.all([
    tx
      .select({ l: listings, p: properties })
      .from(listings)
      .innerJoin(properties, and(eq(properties.id, listings.propertyId), eq(properties.tenantId, tenantId)))
      .where(and(eq(listings.tenantId, tenantId), inArray(listings.id, ids))),
    tx
      .select({ m: media })
      .from(media)
      .innerJoin(listings, and(eq(listings.propertyId, media.propertyId), eq(listings.tenantId, tenantId), inArray(listings.id, ids)))
      .where(eq(media.tenantId, tenantId)),
    tx
      .select({ listingId: networkListings.listingId, networkId: networkListings.networkId })
      .from(networkListings)
      .where(and(eq(networkListings.tenantId, tenantId), inArray(networkListings.listingId, ids))),
  ]);
  if (!rows.length) return [];
  // A property's photos come once per listing of it that was asked for: once each.
  const photos = [...new Map(mediaRows.map(({ m }) => [m.id, m])).values()];

  const typologyIds = [...new Set(rows.map((r) => r.l.typologyId).filter((x): x is string => Boolean(x)))];
  const [typologyRows, unitRows] = await Promise.all([
    typologyIds.length
      ? tx
          .select()
          .from(typologies)
          .where(and(eq(typologies.tenantId, tenantId), inArray(typologies.id, typologyIds)))
      : [],
    typologyIds.length
      ? tx
          .select({ typologyId: units.typologyId, status: units.status, n: count() })
          .from(units)
          .where(and(eq(units.tenantId, tenantId), inArray(units.typologyId, typologyIds)))
          .groupBy(units.typologyId, units.status)
      : [],
  ]);
  const buildingIds = [...new Set([...typologyRows.map((t) => t.buildingId), ...rows.map((r) => r.p.buildingId)].filter((x): x is string => Boolean(x)))];
  const buildingRows = buildingIds.length
    ? await tx
        .select()
        .from(buildings)
        .where(and(eq(buildings.tenantId, tenantId), inArray(buildings.id, buildingIds)))
    : [];

  return rows.map(({ l, p }) => {
    const typology = typologyRows.find((t) => t.id === l.typologyId) ?? null;
    const building = buildingRows.find((b) => b.id === (typology?.buildingId ?? p.buildingId)) ?? null;
    const doc = buildSearchDocument({
      listing: l,
      property: p,
      media: photos.filter((m) => m.propertyId === p.id),
      typology,
      building,
      units: typology ? unitStats(unitRows.filter((u) => u.typologyId === typology.id)) : null,
      settings,
    });
    return { listing: l, property: p, doc, networkIds: shares.filter((x) => x.listingId === l.id).map((x) => x.networkId) };
  });
}

/** Every listing of these properties (a property change reaches all its listings). */
export async function reindexProperties(tx: DbOrTx, tenantId: string, propertyIds: string[], settings?: TenantSettings): Promise<number> {
  if (!propertyIds.length) return 0;
  const rows = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.tenantId, tenantId), inArray(listings.propertyId, propertyIds)));
  return reindexListings(
    tx,
    tenantId,
    rows.map((r) => r.id),
    settings,
  );
}

/** Listings linked to a typology (a typology or unit change). */
export async function reindexTypology(tx: DbOrTx, tenantId: string, typologyId: string): Promise<number> {
  const rows = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.tenantId, tenantId), eq(listings.typologyId, typologyId)));
  return reindexListings(
    tx,
    tenantId,
    rows.map((r) => r.id),
  );
}

function unitStats(rows: { status: string; n: number }[]): UnitStats {
  return {
    available: rows.filter((r) => r.status === "available").reduce((s, r) => s + Number(r.n), 0),
    total: rows.reduce((s, r) => s + Number(r.n), 0),
  };
}

/**
 * The typed and token columns of a document, split into the narrow table (filters, counts,
 * facets) and the wide one (long text, the full-text vector, the trigram text).
 */
export function documentColumns(doc: Record<string, unknown>, derive = true): { narrow: Record<string, unknown>; wide: Record<string, unknown> } {
  const narrow: Record<string, unknown> = {
    [LAT_COLUMN]: doc.location_latitude ?? null,
    [LNG_COLUMN]: doc.location_longitude ?? null,
  };
  const cols: Record<string, unknown> = {};
  for (const f of SEARCH_FIELDS) {
    const target = f.wide ? cols : narrow;
    const v = doc[f.name] ?? null;
    target[columnOf(f.name)] = v;
    if (f.type === "string") target[tokensOf(f)] = v === null ? null : storedTokens(String(v), derive);
    if (f.type === "string[]") target[tokensOf(f)] = v === null ? null : storedElements(v as string[], derive);
  }
  const text = (w: string) =>
    Object.entries(TEXT_WEIGHTS)
      .filter(([, weight]) => weight === w)
      .map(([name]) => (Array.isArray(doc[name]) ? (doc[name] as string[]).join(" ") : String(doc[name] ?? "")))
      .concat(w === "D" ? [String(doc.propertyTypeLabel ?? "")] : [])
      .join(" ");
  cols.tsv = sql`setweight(to_tsvector('pt_unaccent', ${text("A")}), 'A') || setweight(to_tsvector('pt_unaccent', ${text("B")}), 'B')
    || setweight(to_tsvector('pt_unaccent', ${text("C")}), 'C') || setweight(to_tsvector('pt_unaccent', ${text("D")}), 'D')`;
  cols.created_at = doc.createdAt ?? null;
  cols.search_text = normalizeTokens(
    [doc.title, doc.listingCode, doc.location_neighborhood, doc.location_city, doc.location_street].filter(Boolean).join(" "),
  ).join(" ");
  return { narrow, wide: cols };
}

function settingsOfBump(tenantId: string, stored: unknown): TenantSettings {
  if (stored === undefined) throw notFound("Tenant not found.");
  return tenantSettingsOf(tenantId, stored);
}

/**
 * `INSERT ... ON CONFLICT (listing_id) DO UPDATE` of these rows (all with the same keys), written
 * out directly: drizzle's builder spent about a millisecond a write on the ~135 columns. Values go
 * through each column's own driver mapping and a cast to its type, as the builder would send them;
 * an SQL value (the full-text vector) is embedded as it is.
 */
function upsertSql(table: PgTable, rows: Record<string, unknown>[]): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(rows[0]);
  const shape = `${getTableName(table)}|${keys.join(",")}`;
  let head = upsertHeads.get(shape);
  if (!head) {
    const names = keys.map((k) => `"${columns[k].name}"`);
    head = {
      insert: sql.raw(`insert into "${getTableName(table)}" (${names.join(", ")}) values `),
      conflict: sql.raw(
        ` on conflict ("listing_id") do update set ${names
          .filter((n) => n !== '"listing_id"')
          .map((n) => `${n} = excluded.${n}`)
          .join(", ")}`,
      ),
    };
    upsertHeads.set(shape, head);
  }
  const tuples = rows.map((r) => {
    const vals = keys.map((k) => {
      const v = r[k];
      if (v instanceof SQL) return v;
      const col = columns[k];
      return v === null || v === undefined ? sql`null` : sql`${col.mapToDriverValue(v)}::${sql.raw(col.getSQLType())}`;
    });
    return sql`(${sql.join(vals, sql`, `)})`;
  });
  return sql`${head.insert}${sql.join(tuples, sql`, `)}${head.conflict}`;
}

/** The statement's fixed text per table and set of columns (the rows of a document always have the same keys). */
const upsertHeads = new Map<string, { insert: SQL; conflict: SQL }>();

/** Every listing of a tenant, in batches (settings relabel; the reindex command). */
export async function reindexTenant(tx: DbOrTx, tenantId: string, onBatch?: (done: number) => void): Promise<number> {
  const all = await tx.select({ id: listings.id }).from(listings).where(eq(listings.tenantId, tenantId));
  const { settings } = await loadTenant(tx, tenantId);
  let done = 0;
  for (let i = 0; i < all.length; i += 500) {
    done += await reindexListings(
      tx,
      tenantId,
      all.slice(i, i + 500).map((r) => r.id),
      settings,
    );
    onBatch?.(done);
  }
  return done;
}
