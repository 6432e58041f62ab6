import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { conversationDetail, DetailQuery } from "@/lib/messaging/conversations/detail";

/** Chat ids go in the query (they contain `@`); history is read live from the gateway within its budget. */
export const GET = messagingRoute(async ({ req, ctx }) => json(await conversationDetail(ctx, parseQuery(req.url, DetailQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
