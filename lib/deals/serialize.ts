import { z } from "zod";
import type { ContactRow, DealRow } from "../../db/schema";
import { deletedSchema, pageSchema } from "../schemas/paging";
import { DealInterestSchema } from "../visitors/deal-interests";
import { DealSavedSearchSchema } from "../saved-searches/of-deal";

export const DealContactSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  cpf: z.string().nullable(),
  role: z.string(),
});

export type DealContact = z.infer<typeof DealContactSchema>;
export type ContactWithRole = ContactRow & { role: string };

export const DealSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    dealType: z.enum(["rental", "sale"]),
    stage: z.string(),
    status: z.enum(["open", "won", "lost"]),
    currency: z.string(),
    amount: z.string().nullable().meta({ description: "Decimal string with two places." }),
    contacts: z.array(DealContactSchema),
    assignedToId: z.uuid().nullable().meta({ description: "Responsible member id only: no name, photo or phone." }),
    custom: z.record(z.string(), z.unknown()).meta({ description: "The stored customData." }),
    utmSource: z.string().nullable(),
    utmMedium: z.string().nullable(),
    utmCampaign: z.string().nullable(),
    source: z.string().nullable(),
    campaign: z.string().nullable(),
    marketingChannelInstanceId: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Deal" });

export const CreatedDealSchema = DealSchema.pick({
  id: true,
  title: true,
  dealType: true,
  stage: true,
  status: true,
  currency: true,
  createdAt: true,
}).meta({ id: "CreatedDeal" });

export type Deal = z.infer<typeof DealSchema>;

/** `getDeal`: the deal and what its person showed interest in on the site (issue 37). */
export const DealDetailSchema = DealSchema.extend({
  interests: z.array(DealInterestSchema).meta({
    description: "Listings the deal's person favoured, compared or viewed on the agency's site (anonymous visits attached when they identified), oldest first.",
  }),
  savedSearches: z.array(DealSavedSearchSchema).meta({
    description: "The site's saved searches (\"Avise-me\") that became this deal's lead, oldest first: the filters say what the buyer looks for.",
  }),
}).meta({ id: "DealDetail" });

/** `listDeals`: one page of deals. */
export const DealPageSchema = pageSchema(DealSchema, "DealPage", "Deals matching the filters, over all pages.");

/** `deleteDeal`. */
export const DeletedDealSchema = deletedSchema("DeletedDeal");

function contactOut(c: ContactWithRole): DealContact {
  return { id: c.id, name: c.name, email: c.email, phone: c.phone, cpf: c.cpf, role: c.role };
}

export function serializeDeal(d: DealRow, contacts: ContactWithRole[]): Deal {
  return {
    id: d.id,
    title: d.title,
    dealType: d.dealType,
    stage: d.stage,
    status: d.status,
    currency: d.currency,
    amount: d.amount,
    contacts: contacts.map(contactOut),
    assignedToId: d.assignedToId,
    custom: d.customData,
    utmSource: d.utmSource,
    utmMedium: d.utmMedium,
    utmCampaign: d.utmCampaign,
    source: d.source,
    campaign: d.campaign,
    marketingChannelInstanceId: d.marketingChannelInstanceId,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** The deal row of spec 2 §6 carried by `deal.*` events in `data.data.entity` and `data.old`. */
export function dealEventEntity(d: DealRow, contacts: ContactWithRole[]) {
  const {
    id,
    title,
    dealType,
    stage,
    status,
    currency,
    amount,
    marketingChannelInstanceId,
    contacts: people,
    assignedToId,
    createdAt,
    updatedAt,
  } = serializeDeal(d, contacts);
  return {
    id,
    title,
    dealType,
    stage,
    status,
    currency,
    amount,
    marketingChannelInstanceId,
    customData: d.customData,
    contacts: people,
    assignedToId,
    createdAt,
    updatedAt,
  };
}
