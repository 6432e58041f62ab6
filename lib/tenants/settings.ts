import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { tenants, type TenantRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { invalid } from "../errors/domain-errors";
import { loadTenant } from "./load-tenant";
import { assertSettingsStillFit } from "./settings-in-use";
import { reindexTenant } from "../search/index-listings";
import { SettingsShapeSchema, TenantSettingsSchema, type TenantSettings } from "./settings-schema";
import { inTenantTransaction } from "../../db/transaction";
import { assertSharingConfigFits } from "../share/sharing-config";

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

export async function getSettings({ db, actor }: MemberCtx): Promise<Settings> {
  return present(await loadTenant(db, actor.tenantId));
}

export async function updateSettings({ db, actor }: MemberCtx, input: unknown): Promise<Settings> {
  const { name, ...patch } = UpdateSettingsSchema.parse(input);
  if (name === undefined && Object.keys(patch).length === 0) throw invalid("Send at least one setting to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const merged = TenantSettingsSchema.parse({ ...tenant.settings, ...patch });
    await assertSettingsStillFit(tx, actor.tenantId, tenant.settings, merged);
    if (patch.sharingConfig) await assertSharingConfigFits(tx, actor.tenantId, merged.sharingConfig);
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
