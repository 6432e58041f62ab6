import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { tenants, type TenantRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import { TenantSettingsSchema } from "./settings-schema";

export async function loadTenant(db: DbOrTx, tenantId: string): Promise<TenantRow> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw notFound("Tenant not found.");
  // Settings written before a key existed get that key's default.
  return { ...row, settings: TenantSettingsSchema.parse(row.settings) };
}
