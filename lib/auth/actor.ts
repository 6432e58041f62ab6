import type { ApiKeyScope } from "../../db/schema/api-keys";
import type { MemberRole } from "../../db/schema/members";

/**
 * Who is calling: the member an API key acts as. `access` is what that member may see:
 * `broad` for owner, admin and manager members using a broad key; `restricted` (a broker's view)
 * for broker members and for any restricted key (docs/decisions.md, "Restricted keys").
 */
export type Actor = {
  tenantId: string;
  userId: string;
  role: MemberRole;
  scope: ApiKeyScope;
  keyId: string;
  access: "broad" | "restricted";
};

export function accessOf(role: MemberRole, scope: ApiKeyScope): Actor["access"] {
  return scope === "broad" && role !== "broker" ? "broad" : "restricted";
}

/** Tenant administration needs an owner or admin member behind a broad key. */
export function canAdministerTenant(actor: Actor): boolean {
  return actor.scope === "broad" && (actor.role === "owner" || actor.role === "admin");
}
