import { forbidden } from "../errors/domain-errors";
import type { MemberActor } from "./actor";

/**
 * The permission rules endpoints declare (`apiRoute(handler, { permission })`), in one table so a
 * reader sees an endpoint's rule at its definition and every rule's wording here. Reading and
 * writing listings and deals have row-level rules instead (a broker sees its own), kept in their
 * domains' `access` helpers.
 */
export const PERMISSIONS = {
  /** Tenant administration: settings, members, keys, webhooks, channels, networks. */
  "tenant.admin": {
    allows: (a: MemberActor) => a.scope === "broad" && (a.role === "owner" || a.role === "admin"),
    denied: "Tenant settings need a broad API key of an owner or admin member.",
  },
} as const;

export type Permission = keyof typeof PERMISSIONS;

export function can(actor: MemberActor, permission: Permission): boolean {
  return PERMISSIONS[permission].allows(actor);
}

export function requirePermission(actor: MemberActor, permission: Permission): void {
  if (!can(actor, permission)) throw forbidden(PERMISSIONS[permission].denied);
}
