import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { listLabels, ListLabelsQuery } from "@/lib/messaging/labels/read-labels";

/** The channel's labels (label mutation is outside REST). */
export const GET = messagingRoute(async ({ req, ctx }) => json(await listLabels(ctx, parseQuery(req.url, ListLabelsQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
