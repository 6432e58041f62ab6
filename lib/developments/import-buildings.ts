import { and, eq } from "drizzle-orm";
import type { ZodError, z } from "zod";
import type { DbOrTx } from "../../db/client";
import { buildings, typologies, units } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { tenantPagesChanged } from "../page-cache/invalidate";
import { zodIssues } from "../http/errors";
import { recordEvent } from "../outbox/record-event";
import { reindexTypology } from "../search/index-listings";
import { ImportBodySchema, ImportBuildingSchema, ImportTypologySchema, ImportUnitSchema, type ImportResult, type ImportResultsSchema } from "./import-schemas";
import { errorText } from "../errors/error-text";
import type { Ctx } from "../context/verb-context";

/**
 * `POST /api/webhooks/channels/{pathToken}/buildings/import`: developments from a developer's or
 * portal's system, upserted by `externalId` within the tenant. Each building is written in its
 * own transaction and each item is validated on its own, so a bad building, typology or unit is
 * reported (`status: error` with its path and message) and never blocks the others.
 */
export async function importBuildings(ctx: Ctx, body: unknown): Promise<z.infer<typeof ImportResultsSchema>> {
  const { db, tenantId } = ctx;
  const { buildings: items } = ImportBodySchema.parse(body);
  const results: ImportResult[] = [];
  for (const [i, raw] of items.entries()) {
    const path = `buildings.${i}`;
    const parsed = ImportBuildingSchema.safeParse(raw);
    if (!parsed.success) {
      results.push(itemError("building", path, raw, parsed.error));
      continue;
    }
    try {
      results.push(...(await inTenantTransaction(db, tenantId, (tx) => upsertBuilding(tx, tenantId, parsed.data, path))));
    } catch (err) {
      results.push({ kind: "building", path, externalId: parsed.data.externalId, id: null, status: "error", message: errorText(err, 500) });
    }
  }
  return { results };
}

const externalIdOf = (raw: unknown) =>
  raw && typeof raw === "object" && typeof (raw as { externalId?: unknown }).externalId === "string" ? (raw as { externalId: string }).externalId : null;

function itemError(kind: ImportResult["kind"], path: string, raw: unknown, err: ZodError): ImportResult {
  const message = zodIssues(err)
    .map((i) => i.message.replace(/^body field `/, `\``).replace(/^body: /, ""))
    .join("; ");
  return { kind, path, externalId: externalIdOf(raw), id: null, status: "error", message };
}

async function upsertBuilding(tx: DbOrTx, tenantId: string, b: z.infer<typeof ImportBuildingSchema>, path: string): Promise<ImportResult[]> {
  const { typologies: rawTypologies, ...fields } = b;
  // Development pages (and the listings of its units) show it.
  await tenantPagesChanged(tx, [tenantId]);
  const [existing] = await tx
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.tenantId, tenantId), eq(buildings.externalId, b.externalId)))
    .limit(1);
  const values = { ...fields, portfolio: fields.portfolio ?? [], amenities: fields.amenities ?? {} };
  const [row] = existing
    ? await tx
        .update(buildings)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(buildings.id, existing.id))
        .returning()
    : await tx
        .insert(buildings)
        .values({ ...values, tenantId })
        .returning();
  const out: ImportResult[] = [{ kind: "building", path, externalId: b.externalId, id: row.id, status: existing ? "updated" : "created" }];
  for (const [j, rawTypology] of rawTypologies.entries()) {
    out.push(...(await upsertTypology(tx, tenantId, row.id, rawTypology, `${path}.typologies.${j}`)));
  }
  await recordEvent(tx, {
    tenantId,
    eventName: "building.updated",
    entityType: "building",
    entityId: row.id,
    userId: null,
    data: { buildingId: row.id, externalId: b.externalId, created: !existing },
  });
  return out;
}

async function upsertTypology(tx: DbOrTx, tenantId: string, buildingId: string, raw: unknown, path: string): Promise<ImportResult[]> {
  const parsed = ImportTypologySchema.safeParse(raw);
  if (!parsed.success) return [itemError("typology", path, raw, parsed.error)];
  const { units: rawUnits, ...fields } = parsed.data;
  const [existing] = await tx
    .select({ id: typologies.id, buildingId: typologies.buildingId })
    .from(typologies)
    .where(and(eq(typologies.tenantId, tenantId), eq(typologies.externalId, fields.externalId)))
    .limit(1);
  if (existing && existing.buildingId !== buildingId) {
    return [
      {
        kind: "typology",
        path,
        externalId: fields.externalId,
        id: existing.id,
        status: "error",
        message: "this externalId belongs to a typology of another building",
      },
    ];
  }
  const values = { ...fields, features: fields.features ?? {}, files: fields.files ?? [], order: fields.order ?? 0 };
  const [row] = existing
    ? await tx
        .update(typologies)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(typologies.id, existing.id))
        .returning()
    : await tx
        .insert(typologies)
        .values({ ...values, tenantId, buildingId })
        .returning();
  const out: ImportResult[] = [{ kind: "typology", path, externalId: fields.externalId, id: row.id, status: existing ? "updated" : "created" }];
  for (const [k, rawUnit] of rawUnits.entries()) out.push(await upsertUnit(tx, tenantId, row.id, rawUnit, `${path}.units.${k}`));
  // Development listings take prices, areas and unit counts from their typology: keep their search documents current.
  await reindexTypology(tx, tenantId, row.id);
  return out;
}

async function upsertUnit(tx: DbOrTx, tenantId: string, typologyId: string, raw: unknown, path: string): Promise<ImportResult> {
  const parsed = ImportUnitSchema.safeParse(raw);
  if (!parsed.success) return itemError("unit", path, raw, parsed.error);
  const u = parsed.data;
  const [existing] = await tx
    .select({ id: units.id, typologyId: units.typologyId })
    .from(units)
    .where(and(eq(units.tenantId, tenantId), eq(units.externalId, u.externalId)))
    .limit(1);
  if (existing && existing.typologyId !== typologyId) {
    return { kind: "unit", path, externalId: u.externalId, id: existing.id, status: "error", message: "this externalId belongs to a unit of another typology" };
  }
  const [row] = existing
    ? await tx
        .update(units)
        .set({ ...u, updatedAt: new Date() })
        .where(eq(units.id, existing.id))
        .returning()
    : await tx
        .insert(units)
        .values({ ...u, tenantId, typologyId })
        .returning();
  return { kind: "unit", path, externalId: u.externalId, id: row.id, status: existing ? "updated" : "created" };
}
