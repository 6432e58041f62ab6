import { z } from "zod";
import type { MemberCtx } from "../context/verb-context";
import { accessibleChannels } from "./access";
import { readPolicy } from "./conversations/policy";
import { boolParam, ConnectionStatesParam, TransportsParam } from "./conversations/query-params";
import { adapterFor } from "./providers/adapter-for";
import { CONNECTION_STATES, TRANSPORTS } from "./providers/types";

export const ListChannelsQuery = z
  .strictObject({
    transports: TransportsParam.optional(),
    connectionStates: ConnectionStatesParam.optional(),
    ownedOnly: boolParam.optional().meta({ description: "`true`: only channels the key's member owns." }),
    search: z.string().trim().min(1).max(200).optional().meta({ description: "Case-insensitive part of the channel's name." }),
  })
  .meta({ id: "ListMessagingChannelsQuery" });

export const ChannelInventoryItemSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    transport: z.enum(TRANSPORTS),
    connectionState: z.enum(CONNECTION_STATES),
    ownerId: z.uuid().nullable(),
    ownedByMe: z.boolean(),
    privacyEnabled: z.boolean().meta({ description: "The channel keeps a chat privacy whitelist." }),
    capabilities: z.object({
      history: z.boolean().meta({ description: "The detail can read live history (false: `feed_not_supported_on_channel`)." }),
      templates: z.boolean().meta({ description: "`POST /send` accepts `templateId` here." }),
      labels: z.boolean(),
    }),
  })
  .meta({ id: "MessagingChannel" });

/**
 * `GET /api/v1/messaging/channels`: the channels the key's member may use (owner or grant), mock
 * ones excluded, built field by field: no session name, token, QR data, gateway URL or sharing rules
 * (spec 1 §5.8). A member without channels gets an empty list with `no_accessible_channels`.
 */
export async function listChannelInventory(ctx: MemberCtx, q: z.output<typeof ListChannelsQuery>) {
  const all = await accessibleChannels(ctx.db, ctx.actor);
  const needle = q.search?.toLocaleLowerCase("pt-BR");
  const channels = all
    .filter(
      (c) =>
        (!q.transports || q.transports.includes(c.transport as never)) &&
        (!q.connectionStates || q.connectionStates.includes(c.connectionState as never)) &&
        (!q.ownedOnly || c.ownerId === ctx.actor.userId) &&
        (!needle || c.name.toLocaleLowerCase("pt-BR").includes(needle)),
    )
    .sort((a, b) => a.name.localeCompare(b.name, "pt-BR") || a.id.localeCompare(b.id))
    .map((c) => {
      const adapter = adapterFor(c);
      return {
        id: c.id,
        name: c.name,
        transport: c.transport as (typeof TRANSPORTS)[number],
        connectionState: c.connectionState as (typeof CONNECTION_STATES)[number],
        ownerId: c.ownerId,
        ownedByMe: c.ownerId === ctx.actor.userId,
        privacyEnabled: c.privacyMode === "whitelist",
        capabilities: { history: adapter.supportsHistory, templates: adapter.supportsTemplates, labels: adapter.supportsLabels },
      };
    });
  return { policy: readPolicy(all.length ? [] : ["no_accessible_channels"]), channels };
}
