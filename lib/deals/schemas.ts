import { z } from "zod";
import { CpfSchema } from "../contacts/cpf";
import { EmailSchema } from "../schemas/email";
import { PhoneSchema } from "../schemas/phone";
import { DecimalString } from "../listings/schemas";

export const CONTACT_ROLES = ["buyer", "seller", "tenant", "landlord", "guarantor", "spouse", "attorney", "investor", "other"] as const;

export const ContactInputSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    email: EmailSchema.optional(),
    phone: PhoneSchema.optional(),
    role: z.enum(CONTACT_ROLES),
    cpf: CpfSchema.optional(),
  })
  .refine((c) => c.email || c.phone, { message: "needs an email or a phone", path: ["email"] })
  .meta({ id: "DealContactInput" });

const Attribution = {
  utmSource: z.string().trim().max(200).nullable(),
  utmMedium: z.string().trim().max(200).nullable(),
  utmCampaign: z.string().trim().max(200).nullable(),
  source: z.string().trim().max(200).nullable(),
  campaign: z.string().trim().max(200).nullable(),
  marketingChannelInstanceId: z.uuid().nullable().meta({ description: "A marketing channel instance of the tenant." }),
};

const DealWritable = {
  title: z.string().trim().min(1).max(200),
  dealType: z.enum(["rental", "sale"]),
  stage: z.string().trim().min(1).max(48).meta({ description: "One of the tenant's deal stages; default `draft`." }),
  status: z.enum(["open", "won", "lost"]),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as BRL"),
  amount: DecimalString.nullable(),
  contacts: z.array(ContactInputSchema).min(1, "at least one contact is required").max(20),
  custom: z.record(z.string(), z.unknown()).meta({
    description:
      "Search preferences (maxPrice, minPrice, budget, locations, propertyTypes, bedrooms, bathrooms, minArea, maxArea, " +
      "additionalNotes), leadListings [{listingId}], and the tenant's configured custom fields. Stored as customData.",
  }),
  assignedToId: z.uuid().nullable().meta({ description: "Responsible member. Takes precedence over e-mail and phone." }),
  assignedToEmail: EmailSchema.meta({ description: "Input only: resolved to an active member's id, never stored." }),
  assignedToPhone: z.string().trim().min(1).max(40).meta({ description: "Input only, any format: resolved to an active member's id." }),
  ...Attribution,
};

export const CreateDealSchema = z
  .strictObject({
    ...DealWritable,
    stage: DealWritable.stage.optional(),
    status: DealWritable.status.optional(),
    currency: DealWritable.currency.default("BRL"),
    amount: DealWritable.amount.optional(),
    custom: DealWritable.custom.optional(),
    assignedToId: DealWritable.assignedToId.optional(),
    assignedToEmail: DealWritable.assignedToEmail.optional(),
    assignedToPhone: DealWritable.assignedToPhone.optional(),
    utmSource: Attribution.utmSource.optional(),
    utmMedium: Attribution.utmMedium.optional(),
    utmCampaign: Attribution.utmCampaign.optional(),
    source: Attribution.source.optional(),
    campaign: Attribution.campaign.optional(),
    marketingChannelInstanceId: Attribution.marketingChannelInstanceId.optional(),
  })
  .meta({ id: "DealCreate" });

export const DealDataSchema = z.strictObject(DealWritable).partial().meta({ id: "DealUpdateData" });

export const UpdateDealSchema = z
  .strictObject({ id: z.uuid().meta({ description: "Must equal the id in the path." }), data: DealDataSchema })
  .meta({ id: "DealUpdate" });

export type CreateDealInput = z.infer<typeof CreateDealSchema>;
export type DealDataInput = z.infer<typeof DealDataSchema>;
export type ContactInput = z.infer<typeof ContactInputSchema>;
