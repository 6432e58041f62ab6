import type { StoredTenantRow } from "../../db/schema";
import type { TenantSettings } from "./settings-schema";

/** A tenant with its settings parsed into their current shape (`loadTenant`, `tenantSettingsOf`). */
export type TenantRow = Omit<StoredTenantRow, "settings"> & { settings: TenantSettings };
