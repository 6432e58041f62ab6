import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { savedSearchCursors, savedSearches, type SiteRow } from "../../db/schema";
import { afterCommit, inTenantTransaction } from "../../db/transaction";
import { invalid } from "../errors/domain-errors";
import { sendJobEvent } from "../jobs/dispatch";
import { normalAddress } from "../messaging/email/address";
import { toE164 } from "../schemas/phone";
import { loadTenant } from "../tenants/load-tenant";
import { storableJson } from "../util/storable-text";
import { VisitorIdSchema } from "../visitors/visitor-id";
import { candidateColumns, SavedFiltersSchema } from "./filters";
import { savedSearchMessagesDue } from "./queue";

/** `POST /api/sites/{siteId}/saved-searches` (and the catalogue's "Avise-me" form). */
export const CreateSavedSearchBody = z
  .strictObject({
    filters: SavedFiltersSchema,
    contact: z
      .strictObject({
        name: z.string().trim().min(1).max(120).optional(),
        email: z
          .string()
          .trim()
          .max(254)
          .transform((v, ctx) => {
            const a = normalAddress(v);
            if (!a) ctx.addIssue({ code: "custom", message: "must be an e-mail address such as ana@example.com" });
            return a ?? v;
          })
          .optional(),
        phone: z
          .string()
          .trim()
          .max(40)
          .transform((v, ctx) => {
            const e164 = toE164(v);
            if (!e164) ctx.addIssue({ code: "custom", message: "must be a phone number such as +55 11 98765-4321" });
            return e164 ?? v;
          })
          .optional(),
      })
      .meta({ description: "How to reach the visitor: `email` for the e-mail channel, `phone` (WhatsApp) for `whatsapp`." }),
    channel: z.enum(["email", "whatsapp"]),
    frequency: z.enum(["instant", "daily"]).default("instant"),
    consent: z.literal(true, { error: "must be true: the visitor agreed to receive alerts (LGPD consent)" }),
    locale: z.enum(["pt-BR", "en", "es"]).default("pt-BR").meta({ description: "Language of the messages and pages (the page the visitor was on)." }),
    visitorId: VisitorIdSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.channel === "email" && !b.contact.email) ctx.addIssue({ code: "custom", path: ["contact", "email"], message: "is required for the e-mail channel" });
    if (b.channel === "whatsapp" && !b.contact.phone)
      ctx.addIssue({ code: "custom", path: ["contact", "phone"], message: "is required for the WhatsApp channel" });
  })
  .meta({ id: "CreateSavedSearch" });

export const SavedSearchCreatedSchema = z
  .object({ id: z.uuid(), status: z.literal("pending").meta({ description: "Nothing is sent but the confirmation until its link is followed." }) })
  .meta({ id: "SavedSearchCreated" });

/** Where the consent was given, recorded with it (LGPD: who, when, where, how). */
export type ConsentMeta = { linkBase: string; page?: string | null; clientAddress?: string | null; userAgent?: string | null; via: "api" | "form" };

/**
 * Stores a visitor's saved search as `pending` with its consent, before answering; the
 * confirmation message is sent by the messages job, woken after the commit. The tenant's outbox
 * cursor starts at its latest event, so the matcher never alerts for changes made before the
 * first search existed.
 */
export async function createSavedSearch(db: DbOrTx, site: SiteRow, input: unknown, meta: ConsentMeta): Promise<z.infer<typeof SavedSearchCreatedSchema>> {
  const body = CreateSavedSearchBody.parse(storableJson(input));
  const tenant = await loadTenant(db, site.tenantId);
  if (body.filters.propertyType && !tenant.settings.propertyTypes.some((p) => p.id === body.filters.propertyType)) {
    throw invalid(`body field \`filters.propertyType\`: '${body.filters.propertyType}' is not one of the agency's property types.`);
  }
  const now = new Date();
  const source: Record<string, string> = { via: meta.via, site: site.domain, siteId: site.id };
  if (meta.page) source.page = meta.page.slice(0, 500);
  if (meta.clientAddress) source.clientAddress = meta.clientAddress.slice(0, 64);
  if (meta.userAgent) source.userAgent = meta.userAgent.slice(0, 300);
  return inTenantTransaction(db, site.tenantId, async (tx) => {
    const [row] = await tx
      .insert(savedSearches)
      .values({
        tenantId: site.tenantId,
        siteId: site.id,
        channel: body.channel,
        frequency: body.frequency,
        filters: body.filters,
        contactName: body.contact.name ?? null,
        email: body.contact.email ?? null,
        phone: body.contact.phone ?? null,
        locale: body.locale,
        linkBase: meta.linkBase,
        visitorId: body.visitorId ?? null,
        ...candidateColumns(body.filters),
        consentAt: now,
        consentSource: source,
        createdAt: now,
      })
      .returning({ id: savedSearches.id });
    await tx
      .insert(savedSearchCursors)
      .values({ tenantId: site.tenantId, lastSeq: sql`(select coalesce(max(seq), 0) from events where tenant_id = ${site.tenantId}::uuid)` })
      .onConflictDoNothing();
    afterCommit(
      tx,
      "saved-searches:messages-due",
      () => null,
      () => sendJobEvent(savedSearchMessagesDue, {}),
    );
    return { id: row.id, status: "pending" as const };
  });
}
