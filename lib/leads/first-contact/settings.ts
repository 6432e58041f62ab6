import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import { messagingTemplates } from "../../../db/schema";
import type { MemberActor } from "../../context/actor";
import { invalid } from "../../errors/domain-errors";
import { accessibleChannelById } from "../../messaging/access";

export const FIRST_CONTACT_REASONS = ["opt_out", "listing_owner", "won_deal", "open_deal", "guard_error"] as const;
export type FirstContactReason = (typeof FIRST_CONTACT_REASONS)[number];
const Destination = z.enum(["keep_with_broker", "other_queue", "hold"]);
export type FirstContactDestination = z.infer<typeof Destination>;

/** Where a stopped lead goes, per reason, when the channel says nothing. */
export const DEFAULT_DESTINATIONS: Record<FirstContactReason, FirstContactDestination> = {
  opt_out: "hold",
  listing_owner: "keep_with_broker",
  won_deal: "keep_with_broker",
  open_deal: "keep_with_broker",
  guard_error: "hold",
};

export const FirstContactInputSchema = z
  .strictObject({
    enabled: z.boolean(),
    messagingChannelId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .meta({ description: "The messaging channel that sends it; the member saving the setting must be able to send from it (owner or grant)." }),
    templateId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional()
      .meta({ description: "An approved template of that channel (WhatsApp Cloud). Exactly one of `templateId` or `text`." }),
    text: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: "Text sent, with `{{name}}` (the lead's first name) and `{{listing}}` (the listing's title) filled in." }),
    delaySeconds: z.int().min(0).max(86_400).default(0).meta({ description: "Wait after lead processing, 0 to 86400 seconds (default 0)." }),
    destinations: z
      .strictObject(Object.fromEntries(FIRST_CONTACT_REASONS.map((r) => [r, Destination])) as Record<FirstContactReason, typeof Destination>)
      .partial()
      .default({})
      .meta({
        description:
          "Per stop reason, the `destination` `first_contact.skipped` reports: `keep_with_broker`, `other_queue` or `hold`. Defaults: `hold` for `opt_out` and `guard_error`, `keep_with_broker` otherwise.",
      }),
  })
  .superRefine((v, ctx) => {
    if ((v.text === undefined) === (v.templateId === undefined))
      ctx.addIssue({ code: "custom", path: ["text"], message: "send exactly one of `text` or `templateId`" });
  })
  .meta({ id: "FirstContactInput" });

export const FirstContactSchema = z
  .object({
    enabled: z.boolean(),
    messagingChannelId: z.uuid(),
    templateId: z.uuid().optional(),
    text: z.string().optional(),
    delaySeconds: z.int(),
    destinations: z.record(z.string(), Destination),
    configuredById: z.uuid().meta({ description: "The member who saved it: the first message is sent as this member, through the same gates." }),
  })
  .meta({ id: "FirstContact" });

export type FirstContact = z.infer<typeof FirstContactSchema>;

/**
 * Checks a first-contact setting against the tenant (the saving member may send from the channel,
 * the template is one of its templates) and stores who saved it: the sends act as that member.
 */
export async function firstContactToStore(db: DbOrTx, actor: MemberActor, input: z.infer<typeof FirstContactInputSchema>): Promise<FirstContact> {
  const channel = await accessibleChannelById(db, actor, input.messagingChannelId);
  if (!channel) {
    throw invalid(
      "body field `firstContact.messagingChannelId`: no messaging channel of this tenant that this key's member may send from (own it or hold a grant).",
    );
  }
  if (input.templateId) {
    const [tpl] = await db
      .select({ id: messagingTemplates.id })
      .from(messagingTemplates)
      .where(and(eq(messagingTemplates.id, input.templateId), eq(messagingTemplates.channelId, channel.id), eq(messagingTemplates.tenantId, actor.tenantId)))
      .limit(1);
    if (!tpl) throw invalid(`body field \`firstContact.templateId\`: no template ${input.templateId} on that messaging channel.`);
  }
  return { ...input, destinations: { ...DEFAULT_DESTINATIONS, ...input.destinations }, configuredById: actor.userId };
}

/** The stored setting as the service reads it, or null when none or unreadable. */
export function storedFirstContact(raw: unknown): FirstContact | null {
  const parsed = FirstContactSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
