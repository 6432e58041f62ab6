import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { replyMessage } from "@/lib/messaging/send/send-message";

/** A reply in an open conversation: the outbound gates, then the channel's gateway; answers the ack (200 for every status). */
export const POST = messagingRoute(async ({ req, ctx }) => json(await replyMessage(ctx, await readJson(req))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
