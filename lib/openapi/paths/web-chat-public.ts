import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ChatSessionSchema, OpenChatSessionSchema } from "../../messaging/web-chat/sessions";
import { ChatMessageAnswerSchema, ChatMessagesQuery, ChatMessagesSchema, PostChatMessageSchema } from "../../messaging/web-chat/visitor-messages";
import { SITE_POLICIES } from "../../rate-limit/policies";
import { ErrorSchema, jsonContent, UNAVAILABLE } from "../common";
import { PUBLIC_SECURITY } from "../public-common";

const TAG = ["Public web chat"];
const HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "Cache-Control": { description: "`private, no-store` (`private, no-store, no-transform` on the stream).", schema: { type: "string" as const } },
  "Access-Control-Allow-Origin": { description: "`*`", schema: { type: "string" as const } },
  RateLimit: { description: "Remaining requests and seconds to the window reset of the endpoint's group.", schema: { type: "string" as const } },
};
const answer = (description: string, schema: z.ZodType): ResponseConfig => ({ description, headers: HEADERS, content: jsonContent(schema) });
const err = (description: string): ResponseConfig => answer(description, ErrorSchema);

const PLACE_404 = {
  site: "`not_found` (`Site not found`, `Site not published`): unknown, inactive or unpublished site; `chat_not_available`: the site has no chat (or its channel is gone).",
  share:
    "`not_found` (`Share link not found`): unknown or inactive link; `chat_not_available`: the tenant's share pages carry no chat (`sharingConfig.chatChannelId`).",
};
const UNAUTHORIZED =
  "`chat_session_invalid`: no `Authorization: Bearer {sessionToken}`, or a token that is wrong, expired (30 days after the conversation's last message) or opened on another site or share link.";

const errorsOf = (place: "site" | "share", group: keyof typeof SITE_POLICIES, described: Partial<Record<400 | 401 | 409, string>>) => ({
  ...Object.fromEntries(Object.entries(described).map(([s, d]) => [s, err(d)])),
  404: err(PLACE_404[place]),
  ...(place === "share" ? { 410: err("`expired` (`Share link has expired`).") } : {}),
  429: err(`\`rate_limited\`: more than ${SITE_POLICIES[group].points} requests per minute from this address; \`Retry-After\` says when.`),
  500: err("Unexpected failure (`internal_error`)."),
  503: err(UNAVAILABLE),
});

const ABOUT =
  "The visitor's side of a web chat: no API key, any origin. A session token (from `POST .../chat/sessions`) opens one conversation, " +
  "from the site or share link it was opened on, until 30 days after the conversation's last message. The agency answers through the " +
  "messaging API (`POST /api/v1/messaging/reply`, transport `web_chat`).";

export function registerWebChatPublicPaths(r: OpenAPIRegistry): void {
  for (const place of ["site", "share"] as const) {
    const base = place === "site" ? "/api/sites/{siteId}/chat" : "/api/sites/share/{token}/chat";
    const params =
      place === "site"
        ? z.object({ siteId: z.string().meta({ description: "The site's id." }) })
        : z.object({ token: z.string().meta({ description: "The share token." }) });
    const suffix = place === "site" ? "" : "Share";
    const bearer = z.object({ authorization: z.string().meta({ description: "`Bearer {sessionToken}`." }) });
    r.registerPath({
      method: "post",
      path: `${base}/sessions`,
      tags: TAG,
      operationId: `openWebChatSession${suffix}`,
      summary: place === "site" ? "Open a chat on a site" : "Open a chat on a share page",
      description:
        `${ABOUT}\n\nCreates the conversation (listed for the channel's members with the visitor's name, or "Visitante"). With \`consent: true\` ` +
        "and a `phone` or `email`, the visitor's contact becomes a lead of the tenant's website marketing channel, processed like the " +
        "site's lead form (contact, deal, broker, events), and the conversation is linked to the deal and contact." +
        (place === "share" ? " A link sent for a deal links the conversation to that deal instead (no new lead)." : ""),
      security: PUBLIC_SECURITY,
      request: { params, body: { required: true, content: jsonContent(OpenChatSessionSchema) } },
      responses: {
        201: answer("The session token (shown this once) and the conversation key.", ChatSessionSchema),
        ...errorsOf(place, "chat_session", { 400: "Invalid body (`invalid_request` naming the field, `invalid_json`)." }),
      },
    });
    r.registerPath({
      method: "post",
      path: `${base}/messages`,
      tags: TAG,
      operationId: `postWebChatMessage${suffix}`,
      summary: "Send the visitor's message",
      description:
        `${ABOUT}\n\nStored (and \`channel.message.received\` raised) before the 201. Sending a \`clientMessageId\` again answers the first ` +
        "message (201, header `Idempotent-Replayed: true`) and stores nothing.",
      security: PUBLIC_SECURITY,
      request: { params, headers: bearer, body: { required: true, content: jsonContent(PostChatMessageSchema) } },
      responses: {
        201: answer("The stored message.", ChatMessageAnswerSchema),
        ...errorsOf(place, "chat_message", {
          400: "Invalid body: `text` empty, blank or over 2,000 characters, `clientMessageId` missing (`invalid_request`).",
          401: UNAUTHORIZED,
          409: "`client_message_id_reused`: this `clientMessageId` was sent before with another text.",
        }),
      },
    });
    r.registerPath({
      method: "get",
      path: `${base}/messages`,
      tags: TAG,
      operationId: `listWebChatMessages${suffix}`,
      summary: "Read the conversation",
      description: `${ABOUT}\n\nThe visitor's and the agency's messages after \`after\`, oldest first (at most \`limit\`, default 100).`,
      security: PUBLIC_SECURITY,
      request: { params, headers: bearer, query: ChatMessagesQuery },
      responses: {
        200: answer("The messages.", ChatMessagesSchema),
        ...errorsOf(place, "chat_read", { 400: "A bad `after` or `limit`, or an unknown parameter (`invalid_request`).", 401: UNAUTHORIZED }),
      },
    });
    r.registerPath({
      method: "get",
      path: `${base}/stream`,
      tags: TAG,
      operationId: `streamWebChat${suffix}`,
      summary: "Follow the conversation live (Server-Sent Events)",
      description:
        `${ABOUT}\n\n\`text/event-stream\`: each message after \`after\` (or the \`Last-Event-ID\` the browser sends back) as \`event: message\` ` +
        "with `id:` its message id and `data:` a `WebChatMessage` as JSON; then every new message (a member's reply within about a second, " +
        "whichever web process the stream is on), a `: ping` comment every 15 s; the stream ends after 10 minutes (reconnect). " +
        "`EventSource` cannot send headers: read it with `fetch` and the `Authorization` header.",
      security: PUBLIC_SECURITY,
      request: {
        params,
        headers: bearer.extend({ "last-event-id": z.string().optional().meta({ description: "The last message id received." }) }),
        query: ChatMessagesQuery.pick({ after: true }),
      },
      responses: {
        200: {
          description: "The event stream.",
          headers: HEADERS,
          content: { "text/event-stream": { schema: z.string().meta({ description: "`id: {messageId}\\nevent: message\\ndata: {WebChatMessage}`" }) } },
        },
        ...errorsOf(place, "chat_read", { 400: "A bad `after` (`invalid_request`).", 401: UNAUTHORIZED }),
      },
    });
  }
}
