import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ConversationDetailSchema, DetailQuery } from "../../messaging/conversations/detail";
import { ConversationListSchema, ListConversationsQuery } from "../../messaging/conversations/list";
import { ResyncBody, ResyncResultSchema } from "../../messaging/conversations/resync";
import { WebhookStoredSchema } from "../../messaging/email/receive-email";
import { LabelAssignmentsQuery, LabelAssignmentsSchema, LabelsSchema, ListLabelsQuery } from "../../messaging/labels/read-labels";
import { SendAckSchema } from "../../messaging/send/ack";
import { ReplyBodySchema, SendBodySchema } from "../../messaging/send/send-message";
import { API_KEY_SECURITY, errors, ok, UNAUTHORIZED_KEY } from "../common";

/** The same key as everywhere; messaging also reads it from `x-api-key` (declared as a header parameter). */
export const MESSAGING_SECURITY = API_KEY_SECURITY;
export const X_API_KEY_HEADER = z.object({
  "x-api-key": z.string().optional().meta({ description: "The API key (recommended form on messaging); or `Authorization: Bearer <API_KEY>`." }),
});
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
    method: "get",
    path: "/api/v1/messaging/conversations",
    tags,
    operationId: "listConversations",
    summary: "List conversations",
    description:
      "Conversations of the channels the key's member may use, by last activity (or `sort=unread_first`). The query is strict: an " +
      "unknown parameter (a tracking parameter, a misspelling) and a comma-separated array value are 400s; repeat the key for " +
      "arrays (`transports=whatsapp&transports=email`). Page with `cursor` = `page.nextCursor`: it is opaque and only valid " +
      "with the same key's tenant and member and the same filters (`limit` may change). A key whose member may use no channel " +
      'gets an empty 200 with `policy.disabledReasons: ["no_accessible_channels"]`.',
    security: MESSAGING_SECURITY,
    request: { query: ListConversationsQuery, headers: X_API_KEY_HEADER },
    responses: {
      200: ok("The page.", ConversationListSchema),
      ...errors({ 400: "Unknown parameter, comma-separated array, bad value, or a cursor of another query (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/messaging/conversations/detail",
    tags,
    operationId: "getConversationDetail",
    summary: "Conversation state plus live history",
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
    responses: {
      200: ok("State, or a rejection, and history.", ConversationDetailSchema),
      ...errors({ 400: "Missing or bad `channelId`/`chatId`, bad `before`, unknown parameter (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/messaging/conversations/resync",
    tags,
    operationId: "resyncConversation",
    summary: "Rebuild a conversation's provider addressing",
    description:
      "Body `{channelId, chatId}` (the list's `key`; same access rules as the detail). Some gateways keep a chat's messages under its " +
      "`@lid` id, and reading the phone-form chat then answers an empty feed (`feed_empty_pending_sync`). Resync reads the feed under " +
      "the id in use and, when it is empty, under the chat's other forms, and keeps the one that has messages. It sends, deletes or " +
      "alters no message. `outcome`: `recovered` (the detail now reads the history), `still_empty`, `nothing_to_resync` (the feed " +
      "already answers, or the channel keeps no readable history), `unreachable` (the gateway failed or the channel is not connected). " +
      "Without access `outcome` is null and `rejection` is set as in the detail.",
    security: MESSAGING_SECURITY,
    request: { headers: X_API_KEY_HEADER, body: { content: { "application/json": { schema: ResyncBody } } } },
    responses: {
      200: ok("The outcome.", ResyncResultSchema),
      ...errors({ 400: "Missing or bad `channelId`/`chatId`, unknown field (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/messaging/labels",
    tags,
    operationId: "listMessagingLabels",
    summary: "Labels of a channel",
    description:
      "`channelId` (required). Read from the channel's gateway within a short budget (`source: provider`), else the labels last " +
      "reported by its webhooks (`source: stored`). Label mutation is not part of REST (it is in the tool interface).",
    security: MESSAGING_SECURITY,
    request: { query: ListLabelsQuery, headers: X_API_KEY_HEADER },
    responses: {
      200: ok("The labels.", LabelsSchema),
      ...errors({ 400: "Missing or bad `channelId`, unknown parameter (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/messaging/labels/assignments",
    tags,
    operationId: "listMessagingLabelAssignments",
    summary: "Map of chatId to labels",
    description:
      "`channelId` (required), `labelId` (optional: only chats with it). `assignments` maps each labelled chat's `chatId`, the same " +
      "id as `conversations[].key.chatId` (the phone form `…@c.us`; labels applied on the device under an `@lid` id are stored under " +
      "the phone form when the mapping is known), to its labels. Chats hidden by privacy are absent.",
    security: MESSAGING_SECURITY,
    request: { query: LabelAssignmentsQuery, headers: X_API_KEY_HEADER },
    responses: {
      200: ok("The assignments.", LabelAssignmentsSchema),
      ...errors({ 400: "Missing or bad `channelId`, unknown parameter (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  const ackDoc =
    "Answers 200 with the ack for every outcome: `status` `sent` (with `messageId`, the provider's id, as in history and in " +
    "`channel.message.sent`), `blocked`, `forbidden` or `rejected` with a `reason`; nothing is sent unless `sent`. Gates in order: " +
    "`channel_access_grant` (`forbidden`: `channel_forbidden`, or `not_found_or_inaccessible` for an unknown, mock or other " +
    "tenant's channel), `chat_privacy_mode` (`blocked`: `privacy_pending_approval` for a pending chat, `privacy_denied` for a hidden " +
    "one, or one unknown on a whitelist channel), `outreach_safety` (`blocked`: `opt_out` when the chat's phone is on the tenant's " +
    "opt-out list, `outreach_unverifiable` when the chat's phone is not known), then `send_idempotency` when an `idempotencyKey` is " +
    "given: the key is kept per tenant and API key; a resend with the same body answers the first ack with `idempotent: true` and " +
    "sends nothing, also when both arrive at once; a different body under a used key is a 409 `idempotency_key_reused`. Other " +
    "`rejected` reasons: `channel_send_unsupported` (a template on a free-text-only channel), `template_not_found`, " +
    "`listing_not_found`, `listing_not_shareable`, `channel_not_connected`, `channel_unreachable` (the gateway refused: nothing " +
    "sent, the key is freed), `channel_timeout` (no answer within the budget: the outcome is unknown, the key stays used; read the " +
    "history before sending again), `partially_sent`. The message records the key's member as `authorId`.";
  r.registerPath({
    method: "post",
    path: "/api/v1/messaging/reply",
    tags,
    operationId: "replyInConversation",
    summary: "Reply in an open conversation",
    description:
      "Replies in a conversation of the list (`channelId` and `chatId` as in `conversations[].key`). `body` is `{kind:'text', text}` " +
      "or `{kind:'listing_cards', listingIds}` (1 to 10 listings the key may read): each card is one message with the listing's " +
      "title, its price when public, and its public link (a share link on the tenant's share domain, following the sharing rules). " +
      "`policy.riskTier` is `reply`.\n\n" +
      ackDoc,
    security: MESSAGING_SECURITY,
    request: { headers: X_API_KEY_HEADER, body: { content: { "application/json": { schema: ReplyBodySchema } } } },
    responses: {
      200: ok("The ack.", SendAckSchema),
      ...errors({
        400: "Bad body: missing field, unknown field, text over 4096 characters, 0 or more than 10 listings, key shorter than 8 or longer than 200 (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        409: "`idempotency_key_reused`.",
      }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/messaging/send",
    tags,
    operationId: "sendMessage",
    summary: "Proactive send of free text or an approved template",
    description:
      "Exactly one of `text` (1 to 4096 characters) or `templateId` (an approved template of the channel, see " +
      "`/api/v1/settings/messaging-channels/{id}/templates`; only on channels that support templates, else `rejected` " +
      "`channel_send_unsupported`). `idempotencyKey` is required. The chat may be new to the channel when `chatId` is a phone-form " +
      "id (`<digits>@c.us`). `dealId` links the conversation to a deal the key may use. `policy.riskTier` is `proactive` and " +
      "`enforcedGates` includes `send_idempotency`.\n\n" +
      ackDoc,
    security: MESSAGING_SECURITY,
    request: { headers: X_API_KEY_HEADER, body: { content: { "application/json": { schema: SendBodySchema } } } },
    responses: {
      200: ok("The ack.", SendAckSchema),
      ...errors({
        400: "Bad body: neither or both of `text` and `templateId`, unknown field, missing `idempotencyKey`, a `dealId` the key may not use (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        409: "`idempotency_key_reused`.",
      }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/webhooks/messaging/{channelToken}",
    tags: ["Messaging channels"],
    operationId: "receiveMessagingWebhook",
    summary: "Gateway webhook (inbound)",
    description:
      "Configure the URL answered when the channel was created on its gateway. WAHA: `{event, session, payload}` signed with " +
      "`X-Webhook-Hmac` (hex HMAC-SHA512 of the body with the channel's HMAC secret, `X-Webhook-Hmac-Algorithm: sha512`); events " +
      "`message`, `message.any`, `message.ack`, `session.status`, `label.upsert`, `label.chat.added`, `label.chat.deleted`. " +
      "WhatsApp Cloud, Instagram and Messenger (Graph): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256>`; Instagram and Messenger " +
      "post `{object: 'instagram'|'page', entry[].messaging[]}` (messages and echoes become conversation messages; deliveries, " +
      "reads and postbacks are stored only). The event is stored before the 200 and processed in " +
      "the background (conversation records, `@lid` mapping, labels, connection state, `channel.message.*` events).\n\n" +
      "**E-mail channels** post the message itself, with the channel's secret as `X-Webhook-Secret`, a Bearer token or the " +
      "password of HTTP Basic auth: `Content-Type: message/rfc822` (the raw MIME message), `application/json` or a form " +
      "(`multipart/form-data`, `application/x-www-form-urlencoded`) in the shape of the common inbound-parse services: a field " +
      "with the whole message (`raw`, SendGrid's `email`, Mailgun's `body-mime`, `RawEmail`) or the parsed fields (Postmark " +
      "`FromFull`/`From`, `Subject`, `TextBody`/`HtmlBody`, `Headers`, `Attachments`; Mailgun `from`/`sender`, `subject`, " +
      "`body-plain`/`body-html`, `message-headers`, `Message-Id`, `In-Reply-To`, `References`, `attachments`; SendGrid `from`, " +
      "`subject`, `text`/`html`, `headers`, `attachment-info`). Up to 10,000,000 bytes. The message is parsed, threaded " +
      "(`Message-ID`/`In-Reply-To`/`References`, then a `Re:` subject from the same correspondent) and stored before the 200; " +
      "the same `Message-ID` again answers the first id with `duplicate: true`. Attachments are kept as descriptors only.",
    security: [],
    request: { params: z.object({ channelToken: z.string() }) },
    responses: {
      200: ok("Stored.", WebhookStoredSchema),
      ...errors({
        400: "Body is not a JSON object (`invalid_json`); for e-mail, not an e-mail with a valid sender (`invalid_email`).",
        401: "Missing or wrong signature or secret (`unauthorized`).",
        404: "Unknown channel token (`not_found`).",
        413: "Body over 1,000,000 bytes, or 10,000,000 for e-mail (`payload_too_large`).",
        415: "E-mail channels: a `Content-Type` other than the ones listed (`unsupported_media_type`).",
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/webhooks/messaging/{channelToken}",
    tags: ["Messaging channels"],
    operationId: "verifyCloudSubscription",
    summary: "Graph subscription check (WhatsApp Cloud, Instagram, Messenger)",
    description: "`hub.mode=subscribe&hub.verify_token=<the channel's HMAC secret>&hub.challenge=...`: echoes `hub.challenge` as text.",
    security: [],
    request: {
      params: z.object({ channelToken: z.string() }),
      query: z.object({ "hub.mode": z.string(), "hub.verify_token": z.string(), "hub.challenge": z.string() }),
    },
    responses: {
      200: { description: "The challenge, as text/plain.", content: { "text/plain": { schema: z.string() } } },
      ...errors({ 401: "Wrong verify token or not a Graph (Cloud, Instagram, Messenger) channel.", 404: "Unknown channel token." }),
    },
  });
}

/** The 429 of messaging, with the shared error body. */
export const rateLimited = () => errors({ 400: RATE_LIMITED })["400"];
