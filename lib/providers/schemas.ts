import { z } from "zod";
import type { ProviderNotificationRow, ProviderSettingsRow } from "../../db/schema";
import { itemsSchema, PageQuery, pageSchema } from "../schemas/paging";

export const CreateProviderSchema = z
  .strictObject({
    kind: z.enum(["payment", "esignature"]),
    name: z.string().trim().min(1).max(100),
    signatureHeader: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]{1,60}$/, "must be a header name (letters, digits, dashes)")
      .refine((h) => !["authorization", "content-type", "content-length", "host", "cookie"].includes(h), "cannot be a standard header")
      .default("x-signature")
      .meta({ description: "Header carrying the hex HMAC-SHA256 of the raw body (default `x-signature`)." }),
  })
  .meta({ id: "ProviderCreate" });

export const ProviderSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(["payment", "esignature"]),
    name: z.string(),
    receiverUrl: z.string().meta({ description: "Where the provider posts: `{base_url}/api/webhooks/providers/{pathToken}`." }),
    signatureHeader: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "Provider" });
export type Provider = z.infer<typeof ProviderSchema>;

export const ProviderCreatedSchema = ProviderSchema.extend({
  secret: z.string().meta({ description: "HMAC key or Bearer value; shown this once." }),
}).meta({ id: "ProviderCreated" });
export type ProviderCreated = z.infer<typeof ProviderCreatedSchema>;

export const ListNotificationsQuery = z
  .strictObject({ ...PageQuery, status: z.enum(["received", "processing", "processed", "failed", "malformed"]).optional() })
  .meta({ id: "ListProviderNotificationsQuery" });
export type ListNotificationsQueryInput = z.infer<typeof ListNotificationsQuery>;

export const ProviderNotificationSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(["received", "processing", "processed", "failed", "malformed"]),
    event: z.string().nullable().meta({ description: "`boleto.paid`, `invoice.expired`, `sign`, `document_closed`... (null when malformed)." }),
    subjectKey: z.string().nullable().meta({ description: "The provider ids it is about: `boleto:<id>`, `envelope:<key>/signer:<key>`." }),
    outcome: z.string().nullable().meta({
      description:
        "What processing did: `payment_updated`, `contract_updated`, `contract_signed`, `no_change`, `unknown_signer`, `no_matching_payment`, `no_matching_contract`, `unsupported_status`, `unsupported_event`.",
    }),
    effects: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "Ids and states it changed (`transactionId`, `paymentId`, `contractId`, `from`, `to`, `events`)." }),
    error: z.string().nullable().meta({ description: "Why it was malformed or failed." }),
    body: z.string().meta({ description: "The raw body as received." }),
    attempts: z.number().int(),
    receivedAt: z.string(),
    processedAt: z.string().nullable(),
  })
  .meta({ id: "ProviderNotification" });
export type ProviderNotification = z.infer<typeof ProviderNotificationSchema>;

/** `listProviders`. */
export const ProviderListSchema = itemsSchema(ProviderSchema);

/** `listProviderNotifications`: one page of a receiver's notifications. */
export const ProviderNotificationPageSchema = pageSchema(ProviderNotificationSchema, "ProviderNotificationPage");

export function serializeProvider(p: ProviderSettingsRow, origin: string): Provider {
  return {
    id: p.id,
    kind: p.kind,
    name: p.name,
    receiverUrl: `${origin}/api/webhooks/providers/${p.pathToken}`,
    signatureHeader: p.signatureHeader,
    createdAt: p.createdAt.toISOString(),
  };
}

export function serializeNotification(n: ProviderNotificationRow): ProviderNotification {
  return {
    id: n.id,
    status: n.status as ProviderNotification["status"],
    event: n.event,
    subjectKey: n.subjectKey,
    outcome: n.outcome,
    effects: n.effects ?? null,
    error: n.error,
    body: n.body,
    attempts: n.attempts,
    receivedAt: n.receivedAt.toISOString(),
    processedAt: n.processedAt?.toISOString() ?? null,
  };
}
