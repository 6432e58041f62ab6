import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { labelAssignments, LabelAssignmentsQuery } from "@/lib/messaging/labels/read-labels";

/** Map of chatId (as in the conversation list) to its labels. */
export const GET = messagingRoute(async ({ req, ctx }) => json(await labelAssignments(ctx, parseQuery(req.url, LabelAssignmentsQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
