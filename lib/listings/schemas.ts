import { z } from "zod";
import { EmailSchema } from "../schemas/email";
import { CpfSchema } from "../contacts/cpf";
import { PhoneSchema } from "../schemas/phone";
import { HttpUrlSchema, UrlOrPathSchema } from "../schemas/url";

/** "0100.5" -> "100.50": the form PostgreSQL returns, so a resent value compares equal. */
export const twoPlaces = (v: string) => {
  const [int, frac = ""] = v.split(".");
  return `${int.replace(/^0+(?=\d)/, "")}.${frac.padEnd(2, "0")}`;
};

/** Money travels as a decimal string with at most two places, e.g. "450000.00". */
export const DecimalString = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be a decimal string with up to two places, e.g. "450000.00"')
  .transform(twoPlaces)
  .meta({ example: "450000.00" });

/** Areas in m² (numeric(12,2): up to 10 integer digits). */
export const AreaString = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, 'must be an area in m² as a decimal string with up to two places, e.g. "85.50"')
  .transform(twoPlaces)
  .meta({ example: "85.50" });

const Count = z.number().int().min(0).max(999);
const Slug = z.string().trim().min(1).max(48);
const Url = HttpUrlSchema;

export const TypeSpecificRentalSchema = z
  .strictObject({
    deposit: z.number().nonnegative(),
    iptu: z.number().nonnegative(),
    condominiumFee: z.number().nonnegative(),
    rentalPeriod: z.string().trim().min(1).max(40),
    furnished: z.boolean(),
  })
  .partial()
  .meta({ id: "TypeSpecificRental" });

export const TypeSpecificSaleSchema = z
  .strictObject({
    downPayment: z.number().nonnegative(),
    financingAllowed: z.boolean(),
    iptu: z.number().nonnegative(),
    condominiumFee: z.number().nonnegative(),
  })
  .partial()
  .meta({ id: "TypeSpecificSale" });

export const AcceptanceCriteriaSchema = z
  .strictObject({
    minIncome: z.number().nonnegative(),
    requiresGuarantor: z.boolean(),
    petAllowed: z.boolean(),
    smokingAllowed: z.boolean(),
    maxOccupants: z.number().int().min(1).max(100),
  })
  .partial()
  .meta({ id: "AcceptanceCriteria" });

export const TranslationInputSchema = z
  .strictObject({
    title: z.string().trim().max(200).optional(),
    description: z.string().max(20000).optional(),
    source: z.literal("manual", { error: "integrations must send 'manual' ('ai' is set only by the CRM's automatic translation)" }).default("manual"),
    translatedAt: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: "TranslationInput" });

/** Keyed by `en` / `es`; `null` removes that language. Portuguese stays in title/description. */
export const TranslationsInputSchema = z
  .record(z.string(), TranslationInputSchema.nullable())
  .superRefine((rec, ctx) => {
    for (const key of Object.keys(rec)) {
      if (key === "pt-BR" || key === "pt") {
        ctx.addIssue({ code: "custom", path: [key], message: "Portuguese is not a translation: it stays in title and description" });
      } else if (key !== "en" && key !== "es") {
        ctx.addIssue({ code: "custom", path: [key], message: `unsupported language '${key}' (use 'en' or 'es')` });
      }
    }
  })
  .meta({ id: "TranslationsInput", description: "Keys `en` and `es` only; each must be enabled in the tenant's listingLanguages." });

const ListingWritable = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(20000).nullable(),
  type: z.enum(["sale", "rental"]),
  price: DecimalString.nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as BRL"),
  priceVisibility: z.enum(["public", "private"]),
  visibility: z.enum(["public", "private"]),
  stage: Slug.meta({ description: "One of the tenant's listing workflow stages; default the tenant's default stage." }),
  status: z.string().trim().min(1).max(40).nullable().meta({ description: "Sub-status allowed by the stage." }),
  listingCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{0,40}$/, "must be up to 40 letters, digits, '.', '_' or '-'")
    .meta({ description: "Unique per tenant; generated when empty or omitted." }),
  isPrimaryMarket: z.enum(["true", "false"], { error: "must be the text 'true' or 'false'" }),
  typologyId: z.uuid().nullable(),
  typeSpecificData: z.record(z.string(), z.unknown()).meta({
    description: "Rental: deposit, iptu, condominiumFee, rentalPeriod, furnished. Sale: downPayment, financingAllowed, iptu, condominiumFee.",
  }),
  acceptanceCriteria: AcceptanceCriteriaSchema,
};

export const CreateListingSchema = z
  .strictObject({
    ...ListingWritable,
    description: ListingWritable.description.optional(),
    price: ListingWritable.price.optional(),
    currency: ListingWritable.currency.default("BRL"),
    priceVisibility: ListingWritable.priceVisibility.default("public"),
    visibility: ListingWritable.visibility.default("public"),
    stage: ListingWritable.stage.optional(),
    status: ListingWritable.status.optional(),
    listingCode: ListingWritable.listingCode.optional(),
    isPrimaryMarket: ListingWritable.isPrimaryMarket.optional(),
    typologyId: ListingWritable.typologyId.optional(),
    typeSpecificData: ListingWritable.typeSpecificData.optional(),
    acceptanceCriteria: ListingWritable.acceptanceCriteria.optional(),
    translations: TranslationsInputSchema.optional(),
  })
  .meta({ id: "ListingCreate" });

/** `PATCH /listings/{id}`: every writable field but translations. */
export const UpdateListingSchema = z.strictObject(ListingWritable).partial().meta({ id: "ListingUpdate" });

/** A nested `listings[]` item with `id`: updates that listing, translations included. */
export const NestedListingUpdateSchema = UpdateListingSchema.extend({
  id: z.uuid(),
  translations: TranslationsInputSchema.optional(),
}).meta({ id: "NestedListingUpdate" });

export type CreateListingInput = z.infer<typeof CreateListingSchema>;
export type UpdateListingInput = z.infer<typeof UpdateListingSchema> & {
  translations?: z.infer<typeof TranslationsInputSchema>;
};

/** Items with `id` update that listing, items without create one. */
export const NestedListingSchema = z.unknown().transform((v, ctx) => {
  const hasId = typeof v === "object" && v !== null && "id" in v;
  const r = (hasId ? NestedListingUpdateSchema : CreateListingSchema).safeParse(v);
  if (!r.success) {
    for (const issue of r.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return r.data as ({ id: string } & UpdateListingInput) | CreateListingInput;
});

export const MediaInputSchema = z
  .strictObject({
    url: UrlOrPathSchema.meta({ description: "Photo URL (http/https) or a path on this service such as /demo/photo.svg." }),
    alt: z.string().trim().max(300).nullable().optional(),
    order: z.number().int().min(0).max(1000).optional(),
    isPrimary: z.boolean().default(false),
    category: z.string().trim().min(1).max(40).nullable().optional().meta({ description: "e.g. facade, living_room, kitchen, bedroom" }),
    type: z.enum(["photo", "floor_plan"]).default("photo"),
  })
  .meta({ id: "MediaInput" });

export const OwnerSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120).nullable(),
    email: EmailSchema.nullable(),
    phone: PhoneSchema.nullable(),
    whatsapp: PhoneSchema.nullable(),
    cpf: CpfSchema.nullable(),
  })
  .partial()
  .meta({ id: "PropertyOwner", description: "Owner contact. Stored, never shown on any public surface." });

export const PropertyFieldsSchema = z
  .strictObject({
    title: z.string().trim().max(200).nullable(),
    type: Slug.meta({ description: "Id of one of the tenant's property types (settings.propertyTypes)." }),
    bedrooms: Count.nullable(),
    bathrooms: Count.nullable(),
    suites: Count.nullable(),
    parkingSpaces: Count.nullable(),
    totalArea: AreaString.nullable().meta({ description: "m²" }),
    usableArea: AreaString.nullable().meta({ description: "m²" }),
    privateArea: AreaString.nullable().meta({ description: "m²" }),
    features: z.array(Slug).max(100).meta({ description: "Ids of the tenant's property features." }),
    condominiumFee: DecimalString.nullable().meta({ description: "Monthly, BRL" }),
    propertyTax: DecimalString.nullable().meta({ description: "IPTU, yearly, BRL" }),
    assignedToId: z.uuid().nullable().meta({ description: "Responsible broker (member id)." }),
    buildingId: z.uuid().nullable(),
    owner: OwnerSchema.nullable(),
    internalNotes: z.string().max(10000).nullable().meta({ description: "Internal only, never public." }),
    media: z.array(MediaInputSchema).max(100).meta({ description: "Photos; when sent on update it replaces the whole set." }),
    videoUrl: Url.nullable(),
    virtualTourUrl: Url.nullable(),
  })
  .partial()
  .meta({ id: "PropertyFields" });

export const LocationSchema = z
  .strictObject({
    street: z.string().trim().max(200).nullable(),
    number: z.string().trim().max(20).nullable(),
    complement: z.string().trim().max(100).nullable(),
    neighborhood: z.string().trim().max(120).nullable(),
    city: z.string().trim().max(120).nullable(),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "must be a two-letter state code such as SP")
      .nullable(),
    postalCode: z
      .string()
      .trim()
      .regex(/^\d{5}-?\d{3}$/, "must be a CEP such as 01310-100")
      .nullable(),
    latitude: z.number().min(-90).max(90).nullable(),
    longitude: z.number().min(-180).max(180).nullable(),
  })
  .partial()
  .meta({ id: "Location" });

export const CreatePropertySchema = z
  .strictObject({
    property: PropertyFieldsSchema.required({ type: true }),
    location: LocationSchema.optional(),
    listings: z.array(NestedListingSchema).max(20).default([]),
  })
  .meta({ id: "CreateProperty" });

export const UpdatePropertySchema = z
  .strictObject({
    property: PropertyFieldsSchema.optional(),
    location: LocationSchema.optional(),
    listings: z.array(NestedListingSchema).max(20).optional(),
  })
  .meta({ id: "UpdateProperty" });

export type PropertyFieldsInput = z.infer<typeof PropertyFieldsSchema>;
export type LocationInput = z.infer<typeof LocationSchema>;
