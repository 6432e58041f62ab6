import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels } from "../../../db/schema";
import { requirePermission } from "../../context/permissions";
import type { MemberCtx } from "../../context/verb-context";
import { forbidden, notFound } from "../../errors/domain-errors";
import { accessibleChannelById } from "../../messaging/access";
import { ChannelInventoryQuery, listChannelInventory } from "../../messaging/channel-inventory";
import { setChatPrivacy, PRIVACY_STATES } from "../../messaging/chat-privacy";
import { updateMessagingChannel } from "../../messaging/channels";
import { CONNECTION_STATES, TRANSPORTS } from "../../messaging/providers/types";
import { defineTool, READ_ONLY } from "../define-tool";
import { done } from "../result";
import { asQuery, chatIdArg } from "./conversations";

export const listChannelsTool = defineTool({
  name: "list_channels",
  title: "List messaging channels",
  description:
    "The messaging channels this member may use (owns or holds a grant for), same answer as GET /api/v1/messaging/channels: `policy`, " +
    "`channels[]` (`id`, `name`, `transport`, `connectionState`, `privacyEnabled`, `owned`, `capabilities` history/templates/labels) and `scope`. " +
    "Only a `connected` channel sends. No accessible channel gives an empty list with `policy.disabledReasons: ['no_accessible_channels']`.",
  input: z.strictObject({
    transports: z.array(z.enum(TRANSPORTS)).min(1).optional(),
    connectionStates: z.array(z.enum(CONNECTION_STATES)).min(1).optional(),
    ownedOnly: z.boolean().optional().describe("Only channels this member owns."),
    search: z.string().min(1).max(200).optional().describe("Matches the channel name."),
  }),
  annotations: READ_ONLY,
  async run({ ctx }, args) {
    const out = await listChannelInventory(ctx, ChannelInventoryQuery.parse(asQuery(args)));
    const names = out.channels.map((c) => `${c.name} (${c.connectionState})`).join(", ");
    return done(out, `${out.channels.length} channel(s)${names ? `: ${names}` : ""}.`);
  },
});

/**
 * Channel settings are an owner/admin matter on REST (`tenant.admin`); the tool interface keeps
 * that rule and adds the `channel_access_grant` gate every tool mutation passes.
 */
async function channelForChange(ctx: MemberCtx, channelId: string) {
  requirePermission(ctx.actor, "tenant.admin");
  const channel = await accessibleChannelById(ctx.db, ctx.actor, channelId);
  if (channel) return channel;
  const [ofTenant] = await ctx.db
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, channelId), eq(messagingChannels.tenantId, ctx.tenantId), eq(messagingChannels.mock, false)))
    .limit(1);
  if (ofTenant) throw forbidden("This member holds no grant for the channel (channel_access_grant).", "channel_forbidden");
  throw notFound("No such channel accessible to this key.", "not_found_or_inaccessible");
}

const present = (c: { id: string; name: string; transport: string; connectionState: string; privacyMode: string }) => ({
  id: c.id,
  name: c.name,
  transport: c.transport,
  connectionState: c.connectionState,
  privacyEnabled: c.privacyMode === "whitelist",
});

export const updateChannelTool = defineTool({
  name: "update_channel",
  title: "Rename a channel or change its privacy mode",
  description:
    "Changes a channel's `name` and/or `privacyMode` (`whitelist`: only chats whitelisted with set_chat_privacy are open, others are pending or hidden; " +
    "`off`: every chat is open except hidden ones). Needs a broad key of an owner or admin member (as the REST channel settings) that also owns or " +
    "holds a grant for the channel. Errors: `forbidden`, `channel_forbidden`, `not_found_or_inaccessible`.",
  input: z
    .strictObject({
      channelId: z.uuid(),
      name: z.string().trim().min(1).max(120).optional(),
      privacyMode: z.enum(["off", "whitelist"]).optional(),
    })
    .refine((v) => v.name !== undefined || v.privacyMode !== undefined, "give `name` or `privacyMode`"),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, { channelId, ...change }) {
    await channelForChange(ctx, channelId);
    const c = await updateMessagingChannel(ctx, { id: channelId, body: change });
    const out = present(c);
    return done({ channel: out }, `Channel ${out.name}: privacy ${out.privacyEnabled ? "whitelist" : "off"}.`);
  },
});

export const setChatPrivacyTool = defineTool({
  name: "set_chat_privacy",
  title: "Set a chat's privacy state",
  description:
    "Sets one chat's state on a channel's privacy list: `whitelisted` (open: readable and sendable), `pending` (listed without preview; sends are " +
    "`blocked` `privacy_pending_approval`), `hidden` (absent from lists; sends `blocked` `privacy_denied`). Needs a broad key of an owner or admin " +
    "member that owns or holds a grant for the channel. Errors: `forbidden`, `channel_forbidden`, `not_found_or_inaccessible`.",
  input: z.strictObject({ channelId: z.uuid(), chatId: chatIdArg, state: z.enum(PRIVACY_STATES) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, { channelId, chatId, state }) {
    await channelForChange(ctx, channelId);
    const r = await setChatPrivacy(ctx, { id: channelId, body: { chatId, state } });
    return done({ channelId, ...r }, `Chat ${r.chatId} is now ${r.state}.`);
  },
});
