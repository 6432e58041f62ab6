import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { resyncConversation } from "@/lib/messaging/conversations/resync";

/** Rebuilds the provider addressing of one conversation (the chat goes in the body); sends or alters no message. */
export const POST = messagingRoute(async ({ req, ctx }) => json(await resyncConversation(ctx, await readJson(req))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
