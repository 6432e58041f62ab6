import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { DeliveryLogQuery, DeliveryPageSchema, RedeliverySchema } from "../../event-delivery/delivery-log";
import { TestResultSchema } from "../../event-delivery/test-webhook";
import { PutWebhookSchema, WebhookSecretSchema, WebhookSettingsSchema } from "../../event-delivery/webhook-settings";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok } from "../common";

/**
 * `limit` is parsed as text then piped into a number range, and only the text side renders (a
 * string with a digits pattern, no bounds): give the documented integer bounds here.
 */
const DeliveryLogQueryDoc = DeliveryLogQuery.extend({
  limit: DeliveryLogQuery.shape.limit.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Deliveries per page, 1 to 100 (default 50). Above 100 is a 400, never clamped.",
  }),
  cursor: DeliveryLogQuery.shape.cursor.meta({
    description: "The `nextCursor` of the previous page; omit it for the newest deliveries. Opaque: do not build it yourself.",
  }),
  state: DeliveryLogQuery.shape.state.meta({
    description: "Only deliveries in this state: `pending` (queued, maybe failing), `delivered` or `dropped` (after 8 failures).",
  }),
});

/** The "Outbound events" section, shown as the description of the Webhooks tag. */
export const OUTBOUND_EVENTS = [
  "Outbound webhook of the tenant (owner or admin broad key): where events are POSTed, which ones, how they are " +
    "authenticated, and the log of their delivery.",
  "**Outbound events.** When a change is committed, each event the tenant's webhook selects is queued in the same " +
    "transaction and then POSTed, one JSON object per request, to the configured URL.",
  "*Envelope:* `eventId` (a UUID, equal to the `x-event-id` header and stable across retries and redeliveries), " +
    "`eventName` (such as `deal.created`), `occurredAt` (ISO 8601 UTC, fixed when the event is queued; use it to order " +
    "events), `timestamp` (ISO 8601 UTC, when this attempt left; changes on each retry), `tenantId`, and `data` with " +
    "`entityType`, `entityId`, `userId` (or `null`), `data` (the entity-specific payload), `old` (the previous row, or " +
    "`null`) and `changes` (always `null`: compare `old` with the new row).",
  "*Headers:* `Content-Type: application/json`, `User-Agent: <SERVICE_NAME>-Webhook/1.0`, `x-tenant-id`, `x-event-id`, " +
    "`x-event-name`. With `hmac` on: `x-webhook-timestamp` (Unix time, decimal seconds) and `x-webhook-signature`, " +
    "which is `sha256=` followed by the lowercase hex HMAC-SHA256, keyed with the secret, of the timestamp, a `.` and " +
    "the exact raw body bytes; reject timestamps more than 5 minutes from your clock and compare signatures in " +
    "constant time. With `bearer` on: `Authorization: Bearer <secret>`. Both may be on together, with one shared " +
    "secret; with neither, no authentication header is sent. Each attempt reads the settings of that moment, so a " +
    "retry after a URL change or a secret rotation goes to the new URL, signed with the new secret.",
  "*Delivery:* each attempt times out after 30 s; any non-2xx answer, timeout or network error is a failure, and " +
    "redirects are never followed (a 3xx is a failure). Each tenant's queue is first-in first-out: a failing event at " +
    "its head holds the later ones back until the next cycle (about a minute), when it is retried; after 8 failures it " +
    "is dropped and the queue moves on (`POST /api/v1/settings/webhooks/deliveries/{eventId}/redeliver` queues it " +
    "again). Delivery is at least once: deduplicate on `eventId`. In production, URLs that are, or resolve to, " +
    "private, loopback or link-local addresses are refused at each connection (unless `WEBHOOKS_ALLOW_PRIVATE_URLS=true`).",
].join("\n\n");

const SECRET_RULES =
  "**Secret.** Turning `hmac` or `bearer` on when no secret exists generates one (32 random bytes, base64url), returned " +
  "as `secret` in that response only: store it then, later reads show `hasSecret` alone. Turning both off erases it. " +
  "Changing only `url` or `events`, or toggling one option while the other stays on, keeps it. Replace it with " +
  "`POST /api/v1/settings/webhooks/secret`.";

export function registerWebhookPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/webhooks",
    tags: ["Webhooks"],
    operationId: "getWebhookSettings",
    summary: "Read the webhook settings",
    description:
      "The tenant's outbound webhook: `url` (`null` when delivery is off), selected `events`, the `hmac` and `bearer` " +
      "options, `hasSecret` and `updatedAt`. A tenant that never configured one gets `url: null`, no events, both " +
      `options off and \`updatedAt: null\`. The secret itself is never returned here.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The webhook settings, without the secret.", WebhookSettingsSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "put",
    path: "/api/v1/settings/webhooks",
    tags: ["Webhooks"],
    operationId: "putWebhookSettings",
    summary: "Replace the webhook settings",
    description:
      "Replaces the whole configuration: send all four fields. `url` must be an absolute `https` URL without " +
      "credentials (use the bearer option instead); plain `http` is accepted only for a loopback or private host, and " +
      "only in development or test mode or with `WEBHOOKS_ALLOW_PRIVATE_URLS=true`. In production a host that is, or " +
      "resolves to, a loopback, private, link-local, carrier-grade NAT or other non-public address is refused unless " +
      "`WEBHOOKS_ALLOW_PRIVATE_URLS=true` (a cloud metadata address always); a host that does not resolve yet is accepted, " +
      "and every delivery checks the address it connects to. `url: null` turns delivery off: " +
      "nothing more is queued, and events still queued are dropped at their next attempt. `events` lists the event " +
      "names to deliver (the outbound event names of the spec, such as `deal.created`, `listing.updated`; `webhook.test` " +
      "is not selectable, the Test action always sends it); repeats are merged and an empty list delivers nothing. Only " +
      "events recorded after the change follow the new selection.\n\n" +
      `${SECRET_RULES}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: PutWebhookSchema,
            example: { url: "https://hooks.example.com/crm", events: ["deal.created", "listing.updated"], hmac: true, bearer: false },
          },
        },
      },
    },
    responses: {
      200: ok("The settings after the change; `secret` only when this change generated one.", WebhookSettingsSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`): a field missing or unknown, a URL that is not https (or http to a public host, or http to a local one in production), contains credentials, is longer than 2,000 characters, or whose host is or resolves to a non-public address in production (the message names the range, not the resolved address), or an unknown event name.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/webhooks/secret",
    tags: ["Webhooks"],
    operationId: "rotateWebhookSecret",
    summary: "Generate a new webhook secret",
    description:
      "Replaces the shared secret with a new one (32 random bytes, base64url), returned only in this response. The old " +
      "secret stops being used at once: every later attempt, including a retry of an event that failed before the " +
      "rotation, is signed (or carries `Authorization: Bearer`) with the new one. No body.\n\n" +
      `${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The new secret, shown once.", WebhookSecretSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: "Neither `hmac` nor `bearer` is on, so there is no secret to rotate (`conflict`): turning one on generates it.",
      }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/webhooks/test",
    tags: ["Webhooks"],
    operationId: "testWebhook",
    summary: "Send a test event",
    description:
      "Queues a `webhook.test` event (whatever `events` selects) and attempts it at once, in this request, with the " +
      "headers of the enabled options, so the call can take up to the 30 s delivery timeout. Its `data.data` is " +
      "`{message, url}`. The answer reports that attempt: `delivered` is true on a 2xx, `statusCode` is `null` on a " +
      "network error or timeout, `error` describes a failure (such as `HTTP 500`, a timeout or a refused redirect). A " +
      "failed test stays queued and is retried like any other event; it also appears in the delivery log. No body." +
      `\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The outcome of the immediate attempt.", TestResultSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: "No webhook URL is configured (`conflict`): set one with `PUT /api/v1/settings/webhooks` first.",
      }),
    },
  });

  r.registerPath({
    method: "get",
    path: "/api/v1/settings/webhooks/deliveries",
    tags: ["Webhooks"],
    operationId: "listWebhookDeliveries",
    summary: "List webhook deliveries",
    description:
      "The delivery log: each queued event with its `state`, `failures` since it was last (re)queued, `nextAttemptAt` " +
      "(pending only) and every attempt made, oldest attempt first (time, URL, status, error, duration and the first " +
      "1,000 characters of the answer). Newest first by queue position, so a redelivered event moves to the top. Only " +
      "events queued while a URL was set and that selected them appear. Envelope `{items, nextCursor}`: pass " +
      "`nextCursor` as `cursor` to read the next page; it is `null` on the last page. Unknown query parameters are a " +
      `400.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { query: DeliveryLogQueryDoc },
    responses: {
      200: ok("One page of deliveries.", DeliveryPageSchema),
      ...errors({
        400: "Invalid query: `limit` not a whole number or out of range (`limit` > 100), a `cursor` that is not a previous `nextCursor`, an invalid `state`, or an unknown parameter (`invalid_request` with `issues`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
      }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/webhooks/deliveries/{eventId}/redeliver",
    tags: ["Webhooks"],
    operationId: "redeliverWebhookEvent",
    summary: "Queue an event again",
    description:
      "Queues a delivered or dropped event again, at the back of the tenant's queue, with the same `eventId` (receivers " +
      "deduplicating on it will see a repeat) and a fresh count of 8 attempts. The envelope is the stored one " +
      "(`occurredAt` unchanged); it goes to the URL, and with the options and secret, current at the attempt. Earlier " +
      `attempts stay in the log. No body.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      params: z.object({
        eventId: z.uuid().meta({ description: "`eventId` of a delivery in the log (UUID; any other text is a 404)." }),
      }),
    },
    responses: {
      202: ok("Queued again.", RedeliverySchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "No delivery of this event in the tenant: an unknown id, an event that was never queued, or one of another tenant (`not_found`).",
        409: "The event is still pending in the queue (`conflict`): it will be attempted anyway.",
      }),
    },
  });
}
