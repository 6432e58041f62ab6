import { z } from "zod";
import type { TenantRow } from "./tenant-row";
import type { MemberCtx } from "../context/verb-context";
import { loadTenant } from "./load-tenant";
import { SettingsShapeSchema, TenantSettingsSchema } from "./settings-schema";

export const SettingsSchema = TenantSettingsSchema.extend({
  tenant: z.object({ id: z.uuid(), name: z.string(), slug: z.string() }),
}).meta({ id: "TenantSettings" });

/** PATCH replaces each top-level key it sends; the merged result must be valid as a whole. */
export const UpdateSettingsSchema = SettingsShapeSchema.partial()
  .extend({ name: z.string().trim().min(1).max(120).optional() })
  .meta({ id: "UpdateTenantSettings" });

export type Settings = z.infer<typeof SettingsSchema>;

/**
 * The answer of `GET` and `PATCH /settings`. Settings are read through `TenantSettingsSchema`,
 * which gives `dealWorkflow` and `customFields` their defaults, so every answer has both; their
 * `.default()` would render them optional in the description, so here they are required.
 */
export const SettingsResponseSchema = SettingsSchema.extend({
  dealWorkflow: SettingsSchema.shape.dealWorkflow.unwrap(),
  customFields: SettingsSchema.shape.customFields.unwrap(),
  listingTranslation: SettingsSchema.shape.listingTranslation.unwrap(),
  savedSearchDigest: SettingsSchema.shape.savedSearchDigest.unwrap(),
}).meta({ id: "TenantSettings" });

export function presentSettings(t: TenantRow): z.infer<typeof SettingsResponseSchema> {
  return { tenant: { id: t.id, name: t.name, slug: t.slug }, ...t.settings };
}

export async function getSettings({ db, actor }: MemberCtx): Promise<Settings> {
  return presentSettings(await loadTenant(db, actor.tenantId));
}
