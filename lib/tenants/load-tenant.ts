import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { tenants, type TenantRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import { TenantSettingsSchema, type TenantSettings } from "./settings-schema";

/** Parsed settings per tenant, reused while the stored JSON is the same (validating is the costly part). */
const parsed = new Map<string, { raw: string; settings: TenantSettings }>();

export async function loadTenant(db: DbOrTx, tenantId: string): Promise<TenantRow> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw notFound("Tenant not found.");
  const raw = JSON.stringify(row.settings);
  const hit = parsed.get(row.id);
  if (hit && hit.raw === raw) return { ...row, settings: hit.settings };
  // Settings written before a key existed get that key's default.
  const settings = TenantSettingsSchema.parse(row.settings);
  parsed.set(row.id, { raw, settings });
  return { ...row, settings };
}
