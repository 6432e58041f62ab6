import { z } from "zod";

/** Spec 1 §5.5: the gates every read and every send passes, named in the `policy` blocks. */
export const READ_GATES = ["tenant_scope", "channel_access_grant", "chat_privacy_mode", "mock_channel_exclusion"] as const;
export const OUTBOUND_GATES = ["channel_access_grant", "chat_privacy_mode", "outreach_safety"] as const;

export const PRINCIPAL = "tenant_member";

/** The `policy` block of every messaging read (spec 1 §2.5). */
export const ReadPolicySchema = z
  .object({
    principal: z.string().meta({ example: "tenant_member" }),
    tenantScoped: z.boolean(),
    riskTier: z.literal("read"),
    mutates: z.literal(false),
    enforcedGates: z.array(z.string()).meta({ example: ["tenant_scope", "channel_access_grant", "chat_privacy_mode", "mock_channel_exclusion"] }),
    disabledReasons: z
      .array(z.string())
      .meta({ description: "`no_accessible_channels` when the key's member may use no channel (the list is then empty, not a 403)." }),
  })
  .meta({ id: "MessagingReadPolicy" });

export function readPolicy(disabledReasons: string[] = []): z.infer<typeof ReadPolicySchema> {
  return { principal: PRINCIPAL, tenantScoped: true, riskTier: "read" as const, mutates: false, enforcedGates: [...READ_GATES], disabledReasons };
}
