import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { tenants, type TenantRow } from "../../db/schema";
import type { Actor } from "../auth/actor";
import { invalid } from "../errors/domain-errors";
import { loadTenant } from "./load-tenant";
import { requireAdmin } from "./require-admin";
import { assertSettingsStillFit } from "./settings-in-use";
import { reindexTenant } from "../search/index-listings";
import { SettingsShapeSchema, TenantSettingsSchema, type TenantSettings } from "./settings-schema";
import { tenantTransaction } from "./tenant-transaction";

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
  return tenantTransaction(db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const merged = TenantSettingsSchema.parse({ ...tenant.settings, ...patch });
    await assertSettingsStillFit(tx, actor.tenantId, tenant.settings, merged);
    const [row] = await tx
      .update(tenants)
      .set({ settings: merged, ...(name ? { name } : {}), updatedAt: new Date() })
      .where(eq(tenants.id, actor.tenantId))
      .returning();
    // Search documents carry property type and feature labels: relabelling rewrites them.
    const relabelled = ["propertyTypes", "propertyFeatures"].some(
      (k) => JSON.stringify(tenant.settings[k as keyof TenantSettings]) !== JSON.stringify(merged[k as keyof TenantSettings]),
    );
    if (relabelled) await reindexTenant(tx, actor.tenantId);
    return present(row);
  });
}
