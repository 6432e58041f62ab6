import type http from "node:http";
import { MAX_BODY_BYTES } from "../http/read-json";
import { postReply } from "../http/messaging-reply";
import { postShareChatMessage, postSiteChatMessage } from "../http/web-chat-routes";
import { answerOnLane } from "./direct-lane";

/** A visitor's message post, exactly: any other shape (a sub-path, a trailing slash, a '%') goes to Next.js. */
const SITE_PATH = /^\/api\/sites\/([0-9A-Fa-f-]{36})\/chat\/messages(?:\?[^#]*)?$/;
const SHARE_PATH = /^\/api\/sites\/share\/([A-Za-z0-9_-]{32})\/chat\/messages(?:\?[^#]*)?$/;
const REPLY_PATH = /^\/api\/v1\/messaging\/reply(?:\?[^#]*)?$/;

/**
 * Visitors' chat messages on our server's own lane (lib/server/web-server.ts), as the lead webhook:
 * the routes' own functions (`postSiteChatMessage`, `postShareChatMessage`: CORS, rate limit,
 * errors, request id) fed a `Request` built from the bytes read. At 1,000 messages a second on two
 * cores, Next.js's request handling was most of a message's CPU (docs/decisions.md, web chat).
 * A member's reply (`POST /api/v1/messaging/reply`, `postReply`) likewise: it is timed to the
 * visitor's stream.
 */
export function chatMessageLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const url = req.url ?? "";
  if (REPLY_PATH.test(url)) {
    answerOnLane(req, res, MAX_BODY_BYTES + 1, (request) => postReply(request, { params: Promise.resolve({}) }), "messaging reply");
    return true;
  }
  const site = SITE_PATH.exec(url);
  const share = site ? null : SHARE_PATH.exec(url);
  if (!site && !share) return false;
  // One byte past the cap is enough for the route to refuse the body (413).
  answerOnLane(
    req,
    res,
    MAX_BODY_BYTES + 1,
    (request) =>
      site
        ? postSiteChatMessage(request, { params: Promise.resolve({ siteId: site[1] }) })
        : postShareChatMessage(request, { params: Promise.resolve({ token: share![1] }) }),
    "chat message",
  );
  return true;
}
