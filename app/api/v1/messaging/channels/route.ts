import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { ChannelInventoryQuery, listChannelInventory } from "@/lib/messaging/channel-inventory";

export const GET = messagingRoute(async ({ req, ctx }) => json(await listChannelInventory(ctx, parseQuery(req.url, ChannelInventoryQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
