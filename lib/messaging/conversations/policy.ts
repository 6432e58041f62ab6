/** Spec 1 §5.5: the gates every read and every send passes, named in the `policy` blocks. */
export const READ_GATES = ["tenant_scope", "channel_access_grant", "chat_privacy_mode", "mock_channel_exclusion"] as const;
export const OUTBOUND_GATES = ["channel_access_grant", "chat_privacy_mode", "outreach_safety"] as const;

export const PRINCIPAL = "tenant_member";

export function readPolicy(disabledReasons: string[] = []) {
  return { principal: PRINCIPAL, tenantScoped: true, riskTier: "read" as const, mutates: false, enforcedGates: [...READ_GATES], disabledReasons };
}
