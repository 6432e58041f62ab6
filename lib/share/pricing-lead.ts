import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../db/client";
import { inboundLeads, marketingChannelInstances, type MarketingChannelInstanceRow } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import { inTenantTransaction } from "../../db/transaction";
import { toE164 } from "../schemas/phone";
import { invalid } from "../errors/domain-errors";
import { sendJobEvent } from "../jobs/dispatch";
import { newPathToken } from "../leads/channel-tokens";
import { leadReceived } from "../leads/inbound/lead-job";
import { parseLead, type ParsedLead } from "../leads/inbound/parse-lead";
import { findNeighborhood } from "./valuation/comparables";
import { PricingProfileShape } from "./price-estimate";
import { requireCity } from "./pricing-link";
import type { ShareVisitorCtx } from "./share-visitor";
import { storableJson } from "../util/storable-text";

/** The marketing channel pricing leads arrive through: one per tenant, created with the first lead. */
export const PRICING_CHANNEL_KIND = "pricing_tool";

const Money = z.number().positive().max(1e11);

export const PricingLeadBody = z
  .strictObject({
    contact: z
      .strictObject({
        name: z.string().trim().min(1).max(120),
        email: z.email().max(200).nullable().optional(),
        phone: z
          .string()
          .trim()
          .max(40)
          .nullable()
          .optional()
          .transform((v, ctx) => {
            if (!v) return null;
            const e164 = toE164(v);
            if (!e164) ctx.addIssue({ code: "custom", message: "must be a phone number (Brazilian numbers may omit +55)" });
            return e164;
          }),
      })
      .refine((c) => c.email || c.phone, { message: "send an email or a phone so the agency can reply", path: ["email"] }),
    property: z.strictObject({
      ...PricingProfileShape,
      street: z.string().trim().min(1).max(200).nullable().optional(),
      number: z.string().trim().min(1).max(20).nullable().optional(),
      complement: z.string().trim().max(100).nullable().optional(),
      postalCode: z
        .string()
        .trim()
        .regex(/^\d{5}-?\d{3}$/, "must be a CEP such as 05422-000")
        .nullable()
        .optional(),
    }),
    estimate: z
      .strictObject({ value: Money, low: Money, high: Money })
      .refine((e) => e.low <= e.value && e.value <= e.high, { message: "must satisfy low ≤ value ≤ high" })
      .nullable()
      .optional()
      .meta({ description: "The estimate the visitor saw (`estimate` of the price-estimate answer), kept on the deal." }),
    intent: z.enum(["sell", "value"]).meta({ description: "`sell`: the owner wants to sell; `value`: only wanted to know the value." }),
    consent: z.literal(true, { error: "must be true: the visitor agreed to be contacted" }),
  })
  .meta({ id: "PricingLead" });
export type PricingLeadInput = z.infer<typeof PricingLeadBody>;

export const PricingLeadAcceptedSchema = z.object({ ok: z.literal(true), accepted: z.literal(true) }).meta({ id: "PricingLeadAccepted" });

const brl = (v: number) => `R$ ${Math.round(v).toLocaleString("pt-BR")}`;

/** What the broker reads on the deal: the visitor's intent, the estimate they saw and the property. */
function noteOf(b: PricingLeadInput, neighborhood: string, city: string, typeLabel: string): string {
  const p = b.property;
  const facts = [
    typeLabel,
    p.bedrooms != null ? `${p.bedrooms} quartos` : null,
    p.bathrooms != null ? `${p.bathrooms} banheiros` : null,
    p.parkingSpaces != null ? `${p.parkingSpaces} vagas` : null,
    `${p.totalArea} m²`,
    `${neighborhood}, ${city}`,
  ].filter(Boolean);
  const seen = b.estimate ? `${brl(b.estimate.value)} (faixa ${brl(b.estimate.low)} a ${brl(b.estimate.high)})` : "sem estimativa";
  return `Ferramenta de avaliação: ${b.intent === "sell" ? "quer vender" : "quer saber o valor"}. Estimativa exibida: ${seen}. Imóvel: ${facts.join(", ")}.`;
}

/** The tenant's pricing-tool channel, created (in the caller's tenant transaction) with the first lead. */
async function pricingChannel(tx: Tx, tenantId: string): Promise<MarketingChannelInstanceRow> {
  const [found] = await tx
    .select()
    .from(marketingChannelInstances)
    .where(and(eq(marketingChannelInstances.tenantId, tenantId), eq(marketingChannelInstances.kind, PRICING_CHANNEL_KIND)))
    .orderBy(asc(marketingChannelInstances.createdAt))
    .limit(1);
  if (found) return found;
  const [row] = await tx
    .insert(marketingChannelInstances)
    .values({ tenantId, name: "Ferramenta de avaliação", kind: PRICING_CHANNEL_KIND, pathToken: newPathToken(), destinations: { deal: true, listing: false } })
    .returning();
  return row;
}

/**
 * `POST /api/sites/share/{token}/pricing-lead`: validated strictly (a homeowner's form, not a
 * portal's feed), then stored as an inbound lead of the tenant's pricing-tool channel before the
 * answer, and processed by the lead job like any channel lead: a sale deal with the owner as
 * seller, plus a draft property and private listing (owner capture, with geocoding and the
 * same-address check) when the owner wants to sell, the tenant's `sellerIntentCreates` is
 * `deal_and_draft_listing` and street, number, postal code and neighbourhood were given.
 */
export async function capturePricingLead(
  ctx: ShareVisitorCtx,
  input: { body: unknown; trace: Record<string, string> },
): Promise<z.infer<typeof PricingLeadAcceptedSchema>> {
  const { db } = ctx;
  const { tenant } = ctx.actor;
  const { body } = input;
  // The HTML form's values are not read through readJson: a NUL or lone surrogate is cleaned here.
  const b = PricingLeadBody.parse(storableJson(body));
  const place = await requireCity(db, tenant.id, b.property.city);
  const type = typeOf(tenant, b.property.propertyType);
  const nb = await findNeighborhood(db, { tenantId: tenant.id, networkIds: [], terminalStages: [], place }, b.property.neighborhood);
  const neighborhood = nb?.name ?? b.property.neighborhood;
  const p = b.property;
  const capture =
    b.intent === "sell" &&
    tenant.settings.sharingConfig.pricingTool.sellerIntentCreates === "deal_and_draft_listing" &&
    Boolean(p.street && p.number && p.postalCode && neighborhood);
  const lead: ParsedLead = {
    ...parseLead(
      {
        contactName: b.contact.name,
        contactEmail: b.contact.email ?? undefined,
        contactPhone: b.contact.phone ?? undefined,
        propertyType: type.id,
        bedrooms: p.bedrooms ?? undefined,
        bathrooms: p.bathrooms ?? undefined,
        parkingSpaces: p.parkingSpaces ?? undefined,
        totalArea: p.totalArea,
        address: {
          street: p.street,
          number: p.number,
          complement: p.complement,
          neighborhood,
          city: place.city,
          state: place.state ?? undefined,
          postalCode: p.postalCode,
        },
        message: noteOf(b, neighborhood, place.city, type.label),
        source: PRICING_CHANNEL_KIND,
        leadType: "seller_lead",
        businessType: "sale",
        destination: "deal",
      },
      null,
    ),
    pricing: { intent: b.intent, estimate: b.estimate ?? null, captureProperty: capture },
  };
  const stored = await inTenantTransaction(db, tenant.id, async (tx) => {
    const channel = await pricingChannel(tx, tenant.id);
    const [row] = await tx
      .insert(inboundLeads)
      .values({
        tenantId: tenant.id,
        channelId: channel.id,
        destination: "deal",
        rawBody: JSON.stringify(body),
        headers: input.trace,
        lead: lead as unknown as Record<string, unknown>,
      })
      .returning({ id: inboundLeads.id });
    return row;
  });
  // Committed: the lead cannot be lost; the job turns it into a deal (and a draft listing).
  sendJobEvent(leadReceived, { leadId: stored.id });
  return { ok: true, accepted: true };
}

function typeOf(tenant: TenantRow, id: string) {
  const t = tenant.settings.propertyTypes.find((x) => x.id === id);
  if (!t)
    throw invalid(
      `property.propertyType: '${id.slice(0, 48)}' is not one of this tenant's property types (${tenant.settings.propertyTypes.map((x) => x.id).join(", ")}).`,
    );
  return t;
}
