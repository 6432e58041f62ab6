import { eq } from "drizzle-orm";
import { tenants } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid } from "../errors/domain-errors";
import { queueCatalogueForNewTargets } from "../listings/translation-queue";
import { reindexTenant } from "../search/index-listings";
import { loadTenant } from "../tenants/load-tenant";
import { presentSettings, UpdateSettingsSchema, type Settings } from "../tenants/settings";
import { assertSettingsStillFit } from "../tenants/settings-in-use";
import { assertTranslationTargetsEnabled, TenantSettingsSchema, type TenantSettings } from "../tenants/settings-schema";
import { assertSharingConfigFits } from "../tenants/sharing-config";
import { pagesChanged, settingsTag } from "../page-cache/invalidate";

/**
 * Changes the tenant's settings, and what follows from them across domains: search documents carry
 * property type and feature labels, so relabelling rewrites them in the same transaction. Kept
 * here, above tenants and search, so neither domain imports the other.
 */
export async function updateSettings({ db, actor }: MemberCtx, input: unknown): Promise<Settings> {
  const { name, ...patch } = UpdateSettingsSchema.parse(input);
  if (name === undefined && Object.keys(patch).length === 0) throw invalid("Send at least one setting to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    // Languages, property types and labels show on every page of the tenant's sites.
    await pagesChanged(tx, [settingsTag(actor.tenantId)]);
    const merged = TenantSettingsSchema.parse({ ...tenant.settings, ...patch });
    await assertSettingsStillFit(tx, actor.tenantId, tenant.settings, merged);
    if (patch.sharingConfig) await assertSharingConfigFits(tx, actor.tenantId, merged.sharingConfig);
    assertTranslationTargetsEnabled(merged);
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
    // Translation starting for a language covers the catalogue already there, not only later changes.
    await queueCatalogueForNewTargets(tx, actor.tenantId, tenant.settings, merged);
    return presentSettings({ ...row, settings: merged });
  });
}
