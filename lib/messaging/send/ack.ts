import { z } from "zod";
import { OUTBOUND_GATES, PRINCIPAL } from "../conversations/policy";

/** Spec 1 §3: ack statuses of reply and send. `queued` is in the enum for scheduled sends. */
export const ACK_STATUSES = ["sent", "queued", "blocked", "forbidden", "rejected"] as const;
export type AckStatus = (typeof ACK_STATUSES)[number];

export type RiskTier = "reply" | "proactive";

/**
 * Why a send did not go out (`reason` of a non-`sent` ack). The gates' reasons come first, in gate
 * order; the rest are what the channel or the body could not do.
 */
export const ACK_REASONS = [
  "channel_forbidden", // channel_access_grant: a channel of the tenant the member may not use
  "not_found_or_inaccessible", // channel_access_grant (unknown/other tenant/mock channel), or no such conversation
  "privacy_pending_approval", // chat_privacy_mode
  "privacy_denied", // chat_privacy_mode: hidden (blacklisted, or unknown on a whitelist channel)
  "opt_out", // outreach_safety: the phone is on the tenant's opt-out list
  "outreach_unverifiable", // outreach_safety: no phone known for the chat (an unmapped @lid), so the list cannot be checked
  "channel_send_unsupported", // a template on a free-text-only channel
  "template_not_found", // no approved template with this id on the channel
  "listing_not_found", // a listing card the member may not read
  "listing_not_shareable", // the tenant's sharing rules refuse a public link for the listing
  "channel_not_connected", // the channel is not `connected`
  "channel_timeout", // the gateway did not answer within the budget: the outcome is unknown, the key stays used
  "channel_unreachable", // the gateway refused or failed: nothing was sent, the key is released
  "partially_sent", // some listing cards went out before the gateway failed
] as const;
export type AckReason = (typeof ACK_REASONS)[number];

export function ackPolicy(riskTier: RiskTier, idempotencyKeyed: boolean) {
  return {
    principal: PRINCIPAL,
    tenantScoped: true as const,
    mutates: true as const,
    riskTier,
    approval: "never" as const,
    idempotencyKeyed,
    enforcedGates: [...OUTBOUND_GATES, ...(idempotencyKeyed ? (["send_idempotency"] as const) : [])] as string[],
  };
}

export type SendAck = {
  policy: ReturnType<typeof ackPolicy>;
  status: AckStatus;
  /** The provider's id of the (first) message sent: the `id` of history items and `messageId` of `channel.message.sent`. */
  messageId: string | null;
  /** The chat's masked handle (never the number). */
  handle: string | null;
  reason: AckReason | null;
  idempotent: boolean;
};

export const SendAckSchema = z
  .object({
    policy: z.object({
      principal: z.string().meta({ example: PRINCIPAL }),
      tenantScoped: z.boolean(),
      mutates: z.literal(true),
      riskTier: z.enum(["reply", "proactive"]),
      approval: z.literal("never"),
      idempotencyKeyed: z.boolean(),
      enforcedGates: z.array(z.string()).meta({ example: [...OUTBOUND_GATES, "send_idempotency"] }),
    }),
    status: z.enum(ACK_STATUSES),
    messageId: z.string().nullable(),
    handle: z.string().nullable().meta({ description: "Masked handle of the chat.", example: "+55 •••••••4321" }),
    reason: z.enum(ACK_REASONS).nullable().meta({ description: "Set on every status but `sent`." }),
    idempotent: z.boolean().meta({ description: "True when this answers a resend: the first ack, nothing sent again." }),
  })
  .meta({ id: "MessagingSendAck" });
