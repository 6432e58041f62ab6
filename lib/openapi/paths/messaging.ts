import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { DetailQuery } from "../../messaging/conversations/detail";
import { ListConversationsQuery } from "../../messaging/conversations/list";
import { API_KEY_SECURITY, errors, ok, UNAUTHORIZED_KEY } from "../common";
import { ConversationDetailSchema, ConversationListSchema } from "../messaging-schemas";

/** The same key as everywhere; messaging also reads it from `x-api-key` (declared as a header parameter). */
export const MESSAGING_SECURITY = API_KEY_SECURITY;
export const X_API_KEY_HEADER = z.object({ "x-api-key": z.string().optional().meta({ description: "The API key (recommended form on messaging); or `Authorization: Bearer <API_KEY>`." }) });
export const RATE_LIMITED = "More than 1000 requests in the hour with this API key (`rate_limited`); wait `Retry-After` seconds.";

export const MESSAGING_TAG =
  "Conversations over the tenant's connected channels, with live history, replies and sends. Send the key as " +
  "`x-api-key: <API_KEY>` (recommended here) or `Authorization: Bearer`. At most 1000 requests per hour per key: every " +
  "answer carries `RateLimit-Policy` and `RateLimit` (IETF draft), and a 429 carries `Retry-After`.\n\n" +
  "**Gates.** Reads pass `tenant_scope`, `channel_access_grant` (the channel's owner or a member granted access; tenant " +
  "role does not widen it), `chat_privacy_mode` and `mock_channel_exclusion`. Session names, tokens, QR data, gateway " +
  "URLs and provider payloads never appear.\n\n" +
  "**Recommended pattern.** Subscribe to `channel.message.received` and `channel.message.sent`; read `channelId` and " +
  "`chatId` from the event; call `GET /api/v1/messaging/conversations/detail`; reply with `POST /api/v1/messaging/reply`. " +
  "Do not poll the list.";

/** The inbound gateway webhook and the conversation reads. */
export function registerMessagingPaths(r: OpenAPIRegistry): void {
  const tags = ["Messaging"];
  r.registerPath({
    method: "get", path: "/api/v1/messaging/conversations", tags, operationId: "listConversations", summary: "List conversations",
    description:
      "Conversations of the channels the key's member may use, by last activity (or `sort=unread_first`). The query is strict: an " +
      "unknown parameter (a tracking parameter, a misspelling) and a comma-separated array value are 400s; repeat the key for " +
      "arrays (`transports=whatsapp&transports=email`). Page with `cursor` = `page.nextCursor`: it is opaque and only valid " +
      "with the same key's tenant and member and the same filters (`limit` may change). A key whose member may use no channel " +
      "gets an empty 200 with `policy.disabledReasons: [\"no_accessible_channels\"]`.",
    security: MESSAGING_SECURITY,
    request: { query: ListConversationsQuery, headers: X_API_KEY_HEADER },
    responses: { 200: ok("The page.", ConversationListSchema), ...errors({ 400: "Unknown parameter, comma-separated array, bad value, or a cursor of another query (`invalid_request`).", 401: UNAUTHORIZED_KEY }), 429: rateLimited() },
  });
  r.registerPath({
    method: "get", path: "/api/v1/messaging/conversations/detail", tags, operationId: "getConversationDetail", summary: "Conversation state plus live history",
    description:
      "State from the stored record; one page of history fetched live from the channel's gateway on every request, within a " +
      "budget that includes one internal retry. `chatId` goes in the query (it contains `@`). Follow `history.nextBefore` while " +
      "`history.hasMore`; `before` returns strictly older messages. Without access, `conversation` is null and `rejection` is " +
      "`channel_forbidden` (a channel of the tenant the member may not use), `privacy_restricted` (a hidden chat) or " +
      "`not_found_or_inaccessible`, never naming the chat.\n\n" +
      "`history.unavailableReason`: `feed_timeout` (retryable), `feed_transport_unreachable` (gateway error; retryable), " +
      "`feed_empty_pending_sync` (empty first page, activity within 48 h; retryable: try `POST .../resync`), " +
      "`feed_history_not_on_provider` (empty first page, activity older than 48 h), `feed_channel_not_connected` (channel " +
      "`error`, `expired` or `awaiting_auth`), `feed_not_supported_on_channel` (e.g. WhatsApp Cloud, which keeps no readable " +
      "history). `conversation_feed_unavailable` is kept in the enum but never emitted. While a reason is set, an empty page is " +
      "an absence of answer: do not store it as a conversation without messages; when `retryable`, wait `retryAfterSeconds`.",
    security: MESSAGING_SECURITY,
    request: { query: DetailQuery, headers: X_API_KEY_HEADER },
    responses: { 200: ok("State, or a rejection, and history.", ConversationDetailSchema), ...errors({ 400: "Missing or bad `channelId`/`chatId`, bad `before`, unknown parameter (`invalid_request`).", 401: UNAUTHORIZED_KEY }), 429: rateLimited() },
  });
  r.registerPath({
    method: "post", path: "/api/webhooks/messaging/{channelToken}", tags: ["Messaging channels"], operationId: "receiveMessagingWebhook", summary: "Gateway webhook (inbound)",
    description:
      "Configure the URL answered when the channel was created on its gateway. WAHA: `{event, session, payload}` signed with " +
      "`X-Webhook-Hmac` (hex HMAC-SHA512 of the body with the channel's HMAC secret, `X-Webhook-Hmac-Algorithm: sha512`); events " +
      "`message`, `message.any`, `message.ack`, `session.status`, `label.upsert`, `label.chat.added`, `label.chat.deleted`. " +
      "WhatsApp Cloud: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256>`. The event is stored before the 200 and processed in " +
      "the background (conversation records, `@lid` mapping, labels, connection state, `channel.message.*` events).",
    security: [],
    request: { params: z.object({ channelToken: z.string() }) },
    responses: {
      200: ok("Stored.", z.object({ ok: z.literal(true), id: z.uuid() })),
      ...errors({ 400: "Body is not a JSON object (`invalid_json`).", 401: "Missing or wrong signature (`unauthorized`).", 404: "Unknown channel token (`not_found`).", 413: "Body over 1,000,000 bytes (`payload_too_large`)." }),
    },
  });
  r.registerPath({
    method: "get", path: "/api/webhooks/messaging/{channelToken}", tags: ["Messaging channels"], operationId: "verifyCloudSubscription", summary: "WhatsApp Cloud subscription check",
    description: "`hub.mode=subscribe&hub.verify_token=<the channel's HMAC secret>&hub.challenge=...`: echoes `hub.challenge` as text.",
    security: [],
    request: { params: z.object({ channelToken: z.string() }), query: z.object({ "hub.mode": z.string(), "hub.verify_token": z.string(), "hub.challenge": z.string() }) },
    responses: { 200: { description: "The challenge, as text/plain.", content: { "text/plain": { schema: z.string() } } }, ...errors({ 401: "Wrong verify token or not a Cloud channel.", 404: "Unknown channel token." }) },
  });
}

/** The 429 of messaging, with the shared error body. */
export const rateLimited = () => errors({ 400: RATE_LIMITED })["400"];
