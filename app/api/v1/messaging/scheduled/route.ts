import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { listScheduled, ListScheduledQuery } from "@/lib/messaging/scheduled/list";

/** Read-only: scheduling and cancelling happen through the tool interface (`/api/mcp`). */
export const GET = messagingRoute(async ({ req, ctx }) => json(await listScheduled(ctx, parseQuery(req.url, ListScheduledQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
