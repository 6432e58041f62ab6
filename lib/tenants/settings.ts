import { and, count, eq, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../db/client";
import { deals, listings, properties, tenants, type TenantRow } from "../../db/schema";
import type { Actor } from "../auth/actor";
import { conflict, invalid } from "../errors/domain-errors";
import { loadTenant } from "./load-tenant";
import { requireAdmin } from "./require-admin";
import { SettingsShapeSchema, TenantSettingsSchema, type TenantSettings } from "./settings-schema";

export const SettingsSchema = TenantSettingsSchema.extend({
  tenant: z.object({ id: z.uuid(), name: z.string(), slug: z.string() }),
}).meta({ id: "TenantSettings" });

/** PATCH replaces each top-level key it sends; the merged result must be valid as a whole. */
export const UpdateSettingsSchema = SettingsShapeSchema.partial()
  .extend({ name: z.string().trim().min(1).max(120).optional() })
  .meta({ id: "UpdateTenantSettings" });

export type Settings = z.infer<typeof SettingsSchema>;

function present(t: TenantRow): Settings {
  return { tenant: { id: t.id, name: t.name, slug: t.slug }, ...t.settings };
}

export async function getSettings(db: Db, actor: Actor): Promise<Settings> {
  requireAdmin(actor);
  return present(await loadTenant(db, actor.tenantId));
}

export async function updateSettings(db: Db, actor: Actor, input: unknown): Promise<Settings> {
  requireAdmin(actor);
  const { name, ...patch } = UpdateSettingsSchema.parse(input);
  if (name === undefined && Object.keys(patch).length === 0) throw invalid("Send at least one setting to change.");
  return db.transaction(async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const merged = TenantSettingsSchema.parse({ ...tenant.settings, ...patch });
    await assertNothingOrphaned(tx, actor.tenantId, merged);
    const [row] = await tx
      .update(tenants)
      .set({ settings: merged, ...(name ? { name } : {}), updatedAt: new Date() })
      .where(eq(tenants.id, actor.tenantId))
      .returning();
    return present(row);
  });
}

/** Removing a stage or property type that rows still use would leave them invalid: refuse. */
async function assertNothingOrphaned(db: DbOrTx, tenantId: string, s: TenantSettings) {
  const stageIds = s.listingWorkflow.stages.map((st) => st.id);
  const [stageUse] = await db
    .select({ n: count() })
    .from(listings)
    .where(and(eq(listings.tenantId, tenantId), notInArray(listings.stage, stageIds)));
  if (stageUse.n > 0) {
    throw conflict(`listingWorkflow.stages: ${stageUse.n} listing(s) are in a stage this change removes; move them first.`);
  }
  const dealStageIds = s.dealWorkflow.stages.map((st) => st.id);
  const [dealUse] = await db
    .select({ n: count() })
    .from(deals)
    .where(and(eq(deals.tenantId, tenantId), notInArray(deals.stage, dealStageIds)));
  if (dealUse.n > 0) {
    throw conflict(`dealWorkflow.stages: ${dealUse.n} deal(s) are in a stage this change removes; move them first.`);
  }
  const typeIds = s.propertyTypes.map((t) => t.id);
  const [typeUse] = await db
    .select({ n: count() })
    .from(properties)
    .where(and(eq(properties.tenantId, tenantId), notInArray(properties.type, typeIds)));
  if (typeUse.n > 0) {
    throw conflict(`propertyTypes: ${typeUse.n} propert(ies) use a type this change removes; change them first.`);
  }
}
