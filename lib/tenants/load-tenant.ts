import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { jsonColumn } from "../../db/rows";
import { tenants } from "../../db/schema";
import type { TenantRow } from "./tenant-row";
import { notFound } from "../errors/domain-errors";
import { TenantSettingsSchema, type TenantSettings } from "./settings-schema";

/** Parsed settings per tenant, reused while the stored JSON is the same (validating is the costly part). */
const parsed = new Map<string, { raw: string; settings: TenantSettings }>();

export async function loadTenant(db: DbOrTx, tenantId: string): Promise<TenantRow> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw notFound("Tenant not found.");
  return { ...row, settings: tenantSettingsOf(row.id, row.settings) };
}

/** A tenant's stored settings (the `settings` column as read), parsed once while they stay the same. */
export function tenantSettingsOf(tenantId: string, stored: unknown): TenantSettings {
  const value = jsonColumn(stored);
  const raw = JSON.stringify(value);
  const hit = parsed.get(tenantId);
  if (hit && hit.raw === raw) return hit.settings;
  // Settings written before a key existed get that key's default.
  const settings = TenantSettingsSchema.parse(value);
  parsed.set(tenantId, { raw, settings });
  return settings;
}
