import type { ApiKeyScope } from "../../db/schema/api-keys";
import type { MemberRole } from "../../db/schema/members";

/**
 * Who is acting. Every verb receives one in its context, and events record `userId` from it.
 *
 * - `member`: a tenant member calling through an API key (REST today, the tool interface later).
 *   `access` is what that member may see: `broad` for owner, admin and manager members using a broad
 *   key; `restricted` (a broker's view) for broker members and for any restricted key.
 * - `system`: work the service does on its own (jobs, imports, the seed, CLIs); `job` names it.
 * - `visitor`: an anonymous person on a tenant's public site or share link; read-only public scope.
 * - `integration`: a marketing channel or a provider gateway calling one of our webhooks.
 */
export type MemberActor = {
  kind: "member";
  tenantId: string;
  userId: string;
  role: MemberRole;
  scope: ApiKeyScope;
  keyId: string;
  access: "broad" | "restricted";
  /**
   * Set when an AI agent acts with this member's grants (lib/agents): the same verbs and gates as
   * the member, but events name no user (`userId` null) and the member's own sends pause agents.
   */
  agentId?: string;
};
export type SystemActor = { kind: "system"; tenantId: string; job: string };
export type VisitorActor = { kind: "visitor"; tenantId: string; via: { site: string } | { shareLink: string } };
export type IntegrationActor = {
  kind: "integration";
  tenantId: string;
  integration: "marketing_channel" | "messaging_gateway" | "provider";
  id: string;
};
export type Actor = MemberActor | SystemActor | VisitorActor | IntegrationActor;

export function accessOf(role: MemberRole, scope: ApiKeyScope): MemberActor["access"] {
  return scope === "broad" && role !== "broker" ? "broad" : "restricted";
}

export function systemActor(tenantId: string, job: string): SystemActor {
  return { kind: "system", tenantId, job };
}

/** The `userId` of an event: the member who acted; null for agents, the system, visitors and integrations (spec 2 §2.10). */
export function eventUserId(actor: Actor): string | null {
  return actor.kind === "member" && !actor.agentId ? actor.userId : null;
}
