import { replyMessage } from "../messaging/send/send-message";
import { messagingRoute } from "./messaging-route";
import { readJson } from "./read-json";
import { json } from "./run";

/**
 * `POST /api/v1/messaging/reply` as its route exports it; the server's lane (lib/server/chat-lane.ts)
 * answers it with this same function before Next.js: a web chat's reply is timed to the visitor's stream.
 */
export const postReply = messagingRoute(async ({ req, ctx }) => json(await replyMessage(ctx, await readJson(req))));
