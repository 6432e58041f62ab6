import { z } from "zod";
import type { MemberCtx } from "../context/verb-context";
import { accessibleChannels } from "./access";
import { readPolicy, ReadPolicySchema } from "./conversations/policy";
import { boolParam, ConnectionStatesParam, TransportsParam } from "./conversations/query-params";
import { CONNECTION_STATES, TRANSPORTS } from "./providers/types";

export const ChannelInventoryQuery = z
  .strictObject({
    transports: TransportsParam.optional(),
    connectionStates: ConnectionStatesParam.optional(),
    ownedOnly: boolParam.optional().meta({ description: "Only channels the key's member owns." }),
    search: z.string().trim().min(1).max(200).optional().meta({ description: "Matches the channel name (case-insensitive)." }),
  })
  .meta({ id: "ChannelInventoryQuery" });

export const ChannelInventoryItemSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    transport: z.enum(TRANSPORTS),
    connectionState: z.enum(CONNECTION_STATES),
    privacyEnabled: z.boolean().meta({ description: "The channel has a privacy whitelist: only whitelisted chats are open." }),
    owned: z.boolean().meta({ description: "The key's member owns the channel (else it holds a grant)." }),
    capabilities: z.object({
      history: z.boolean().meta({ description: "Live history can be read (conversation detail)." }),
      templates: z.boolean().meta({ description: "Approved templates can be sent." }),
      labels: z.boolean().meta({ description: "Chat labels exist on the channel." }),
    }),
  })
  .meta({ id: "ChannelInventoryItem" });

/** The answer of `listChannelInventory`. */
export const ChannelInventorySchema = z
  .object({
    policy: ReadPolicySchema,
    channels: z.array(ChannelInventoryItemSchema),
    scope: z.object({ accessibleChannelCount: z.number().int(), privacyEnabledChannelCount: z.number().int() }),
  })
  .meta({ id: "ChannelInventory" });

/** What each provider can do; no credentials are opened to answer it. */
const CAPABILITIES: Record<string, { history: boolean; templates: boolean; labels: boolean }> = {
  waha: { history: true, templates: false, labels: true },
  whatsapp_cloud: { history: false, templates: true, labels: false },
};

/**
 * The channel inventory (spec 1 §4.3 `GET /channels`): the channels the member may use (owner or
 * grant, never a mock), built from an allow-list: no session name, token, QR, gateway URL or
 * sharing rule. A member with none gets an empty list with `no_accessible_channels`.
 */
export async function listChannelInventory(ctx: MemberCtx, q: z.output<typeof ChannelInventoryQuery>): Promise<z.infer<typeof ChannelInventorySchema>> {
  const all = await accessibleChannels(ctx.db, ctx.actor);
  const needle = q.search?.toLowerCase();
  const channels = all
    .filter(
      (c) =>
        (!q.transports || q.transports.includes(c.transport as never)) &&
        (!q.connectionStates || q.connectionStates.includes(c.connectionState as never)) &&
        (!q.ownedOnly || c.ownerId === ctx.actor.userId) &&
        (!needle || c.name.toLowerCase().includes(needle)),
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((c) => ({
      id: c.id,
      name: c.name,
      transport: c.transport as (typeof TRANSPORTS)[number],
      connectionState: c.connectionState as (typeof CONNECTION_STATES)[number],
      privacyEnabled: c.privacyMode === "whitelist",
      owned: c.ownerId === ctx.actor.userId,
      capabilities: CAPABILITIES[c.provider] ?? { history: false, templates: false, labels: false },
    }));
  return {
    policy: readPolicy(all.length ? [] : ["no_accessible_channels"]),
    channels,
    scope: { accessibleChannelCount: all.length, privacyEnabledChannelCount: all.filter((c) => c.privacyMode === "whitelist").length },
  };
}
