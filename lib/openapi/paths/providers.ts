import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { NotificationStoredSchema } from "../../providers/receive";
import {
  CreateProviderSchema,
  ListNotificationsQuery,
  ProviderCreatedSchema,
  ProviderListSchema,
  ProviderNotificationPageSchema,
  ProviderSchema,
} from "../../providers/schemas";
import { ADMIN_ONLY, API_KEY_SECURITY, ErrorSchema, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const NotificationQueryDoc = ListNotificationsQuery.extend({
  page: ListNotificationsQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1 }),
  pageSize: ListNotificationsQuery.shape.pageSize.meta({ type: "integer", minimum: 1, maximum: 100, default: 50 }),
});
const NOT_FOUND = "No such provider receiver in the tenant (`not_found`).";
const err = (description: string) => ({ description, content: jsonContent(ErrorSchema) });

export const PROVIDER_PAYLOADS =
  '**Payment payload** (spec 2 §6): `{"event": {"id"?, "log": {"type": "boleto" | "invoice", "boleto" | "invoice": ' +
  '{"id", "status", "amount", "taxId", "name", "due", "paid"}}}}`. `status` (any case): `paid`/`credited` → paid; ' +
  "`cancelled`/`canceled` → cancelled; `expired`/`overdue` → expired; `transfer_processing`, `transfer_done`/`transfer_success`, " +
  "`transfer_failed` → the payment's `transferStatus`; `created`/`registered`/`pending` change nothing. Matched to a payment " +
  "by `(type, id)` = `(method, providerId)`.\n\n" +
  '**E-signature payload**: `{"event": "upload" | "add_signer" | "sign" | "document_closed" | "refusal" | "cancel" | ' +
  '"deadline", "data": {"document": {"key", "name", "url"?}, "signer": {"key", "name", "email"?}, "envelope": ' +
  '{"key"}}, "timestamp"}` (`document_closed` without `signer`). Matched to a contract by `envelope.key`, else `document.key`.';

export function registerProviderPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/providers",
    tags: ["Providers"],
    operationId: "listProviders",
    summary: "List provider receivers",
    description: `The tenant's payment and e-signature receivers (never their secrets).\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The receivers.", ProviderListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/settings/providers",
    tags: ["Providers"],
    operationId: "createProvider",
    summary: "Create a provider receiver",
    description:
      "A receiver for a payment (`payment`) or e-signature (`esignature`) provider: `receiverUrl` with an unguessable path " +
      "token and a `secret` answered this once (stored encrypted). Give both to the provider; it signs each POST with the " +
      `hex HMAC-SHA256 of the raw body in \`signatureHeader\` (default \`x-signature\`), or sends \`Authorization: Bearer <secret>\`.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      body: { required: true, content: { "application/json": { schema: CreateProviderSchema, example: { kind: "esignature", name: "Assinaturas" } } } },
    },
    responses: {
      201: ok("The receiver and its secret (shown once).", ProviderCreatedSchema),
      ...errors({ 400: "Invalid body.", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/providers/{id}",
    tags: ["Providers"],
    operationId: "getProvider",
    summary: "Read a provider receiver",
    description: `The receiver, without its secret.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "provider receiver") },
    responses: { 200: ok("The receiver.", ProviderSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "delete",
    path: "/api/v1/settings/providers/{id}",
    tags: ["Providers"],
    operationId: "deleteProvider",
    summary: "Delete a provider receiver",
    description: `Its URL answers 404 at once; its notification log is deleted with it. Payments and contracts stay.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "provider receiver") },
    responses: { 204: { description: "Deleted." }, ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/providers/{id}/notifications",
    tags: ["Providers"],
    operationId: "listProviderNotifications",
    summary: "What arrived at a receiver and what it did",
    description:
      "Every authenticated delivery, newest first, with its raw body, `status` (`received`, `processing`, `processed`, " +
      "`failed`, `malformed`), and once processed its `outcome` and `effects`. Unauthenticated requests are not stored.\n\n" +
      ADMIN_ONLY,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "provider receiver"), query: NotificationQueryDoc },
    responses: {
      200: ok("One page of notifications.", ProviderNotificationPageSchema),
      ...errors({ 400: "Invalid query.", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/webhooks/providers/{pathToken}",
    tags: ["Providers"],
    operationId: "receiveProviderNotification",
    summary: "Provider notification receiver",
    description:
      "Where a payment or e-signature provider posts. The signature is checked on the raw bytes before anything is parsed " +
      "(constant-time); then the payload's shape; then the notification is stored and answered 200 `{ok, id}`, and applied " +
      "in the background: idempotent by the provider's ids (a repeat changes nothing), safe out of order (states only move " +
      `forward), and scoped to the receiver's tenant.\n\n${PROVIDER_PAYLOADS}`,
    security: [],
    request: {
      params: z.object({ pathToken: z.string().meta({ description: "`prv_…`, from the receiver's `receiverUrl`." }) }),
      body: { required: true, content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
    },
    responses: {
      200: ok("Stored; it will be applied in the background.", NotificationStoredSchema),
      400: err("Not JSON, or not the shape of this receiver's kind (`malformed_notification`); stored as `malformed` for inspection, changes nothing."),
      401: err("Missing or wrong signature and no valid Bearer secret; nothing stored."),
      404: err("Unknown receiver token."),
      413: err("Body larger than 256 KB."),
      ...errors({}),
    },
  });
}
