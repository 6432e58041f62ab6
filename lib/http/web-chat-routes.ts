import type { Db } from "../../db/client";
import { type ChatPlace, shareChatPlace, siteChatPlace } from "../messaging/web-chat/place";
import { chatSessionOf, openChatSession } from "../messaging/web-chat/sessions";
import { chatStream } from "../messaging/web-chat/stream";
import { ChatMessagesQuery, listVisitorMessages, postVisitorMessage } from "../messaging/web-chat/visitor-messages";
import { UUID_PATTERN } from "../schemas/uuid";
import { chatRoute } from "./chat-route";
import { parseQuery } from "./query";
import { readJson } from "./read-json";
import { json } from "./run";

/**
 * The visitor's four calls, shared by the site routes (`/api/sites/{siteId}/chat/...`) and the
 * share-page routes (`/api/sites/share/{token}/chat/...`): only how the place is found differs.
 */
export const visitorChat = {
  async openSession(db: Db, place: ChatPlace, req: Request): Promise<Response> {
    return json(await openChatSession(db, place, await readJson(req), { userAgent: req.headers.get("user-agent") }), 201);
  },
  async postMessage(db: Db, placeOf: Promise<ChatPlace>, req: Request): Promise<Response> {
    // The place and the session are read at once; the place's refusal (404) still comes first.
    const session = await chatSessionOf(db, placeOf, req.headers.get("authorization"));
    const { message, replayed } = await postVisitorMessage(db, await placeOf, session, await readJson(req));
    return json({ message }, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
  },
  async listMessages(db: Db, place: ChatPlace, req: Request): Promise<Response> {
    const session = await chatSessionOf(db, place, req.headers.get("authorization"));
    return json(await listVisitorMessages(db, session, parseQuery(req.url, ChatMessagesQuery)));
  },
  async stream(db: Db, place: ChatPlace, req: Request): Promise<Response> {
    const session = await chatSessionOf(db, place, req.headers.get("authorization"));
    const { after } = parseQuery(req.url, ChatMessagesQuery.pick({ after: true }));
    // The browser's `Last-Event-ID` (a message id it received) wins over the `after` it was opened with.
    const lastEventId = req.headers.get("last-event-id") ?? "";
    return chatStream(db, session, { after: UUID_PATTERN.test(lastEventId) ? lastEventId.toLowerCase() : (after ?? null), signal: req.signal });
  },
};

/**
 * `POST .../chat/messages` of a site and of a share page, as their routes export them; the
 * server's chat lane (lib/server/chat-lane.ts) answers them with these same functions before Next.js.
 */
export const postSiteChatMessage = chatRoute<{ siteId: string }>("chat_message", async ({ req, db, params }) =>
  visitorChat.postMessage(db, siteChatPlace(db, params.siteId), req),
);
export const postShareChatMessage = chatRoute<{ token: string }>("chat_message", async ({ req, db, params }) =>
  visitorChat.postMessage(db, shareChatPlace(db, params.token), req),
);
