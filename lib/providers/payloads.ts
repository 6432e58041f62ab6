import { z } from "zod";
import type { ProviderKind } from "../../db/schema";

/**
 * What the receiver accepts as well-formed (spec 2 §6, "Inbound notifications from providers").
 * Objects are loose: providers add fields, and only those we read are checked. A payload that
 * fails here is answered 400 and kept with status `malformed`.
 */
const ProviderId = z.union([z.string().trim().min(1).max(200), z.number().int().nonnegative()]).transform(String);

const PaymentObject = z.looseObject({
  id: ProviderId,
  status: z.string().trim().min(1).max(60),
  amount: z.number().nonnegative().optional(),
  taxId: z.string().max(40).optional(),
  name: z.string().max(300).optional(),
  due: z.string().max(40).optional(),
  paid: z.string().max(40).nullable().optional(),
});

export const PaymentPayload = z.looseObject({
  event: z.looseObject({
    id: ProviderId.optional(),
    log: z.discriminatedUnion("type", [
      z.looseObject({ type: z.literal("boleto"), boleto: PaymentObject }),
      z.looseObject({ type: z.literal("invoice"), invoice: PaymentObject }),
    ]),
  }),
});
export type PaymentNotification = { method: "boleto" | "invoice"; object: z.infer<typeof PaymentObject>; eventId: string | null };

export const ESIGNATURE_EVENTS = ["upload", "add_signer", "sign", "document_closed", "refusal", "cancel", "deadline"] as const;
export type EsignatureEvent = (typeof ESIGNATURE_EVENTS)[number];

const Keyed = z.looseObject({ key: ProviderId, name: z.string().max(300).optional() });

export const EsignaturePayload = z
  .looseObject({
    event: z.string().trim().min(1).max(60),
    data: z.looseObject({
      document: Keyed.extend({
        url: z
          .url({ protocol: /^https?$/ })
          .max(2000)
          .optional(),
      }).optional(),
      signer: Keyed.extend({ email: z.string().max(320).optional() }).optional(),
      envelope: z.looseObject({ key: ProviderId }).optional(),
    }),
    timestamp: z.union([z.string().max(40), z.number()]).optional(),
  })
  .refine((p) => p.data.envelope || p.data.document, { message: "data.envelope.key or data.document.key is required", path: ["data"] })
  .refine((p) => !["sign", "add_signer", "refusal"].includes(p.event) || p.data.signer, {
    message: "data.signer.key is required for this event",
    path: ["data", "signer"],
  });
export type EsignatureNotification = z.infer<typeof EsignaturePayload>;

export type ParsedNotification =
  | { kind: "payment"; event: string; subjectKey: string; payment: PaymentNotification }
  | { kind: "esignature"; event: string; subjectKey: string; esign: EsignatureNotification };

/** Checks a body against its provider kind; throws a message naming what is wrong. */
export function parseNotification(kind: ProviderKind, body: unknown): ParsedNotification {
  if (kind === "payment") {
    const p = PaymentPayload.parse(body);
    const log = p.event.log;
    const object = log.type === "boleto" ? log.boleto : log.invoice;
    return {
      kind,
      event: `${log.type}.${object.status.toLowerCase()}`.slice(0, 100),
      subjectKey: `${log.type}:${object.id}`,
      payment: { method: log.type, object, eventId: p.event.id ?? null },
    };
  }
  const e = EsignaturePayload.parse(body);
  const subject = e.data.envelope ? `envelope:${e.data.envelope.key}` : `document:${e.data.document!.key}`;
  return { kind, event: e.event.slice(0, 100), subjectKey: e.data.signer ? `${subject}/signer:${e.data.signer.key}` : subject, esign: e };
}

/** A zod error as one line naming the paths (kept with the malformed notification and answered in the 400). */
export function describeIssues(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "body"}: ${i.message}`)
    .join("; ");
}
