import { canAdministerTenant, type Actor } from "../auth/actor";
import { forbidden } from "../errors/domain-errors";

export function requireAdmin(actor: Actor): void {
  if (!canAdministerTenant(actor)) {
    throw forbidden("Tenant settings need a broad API key of an owner or admin member.");
  }
}
