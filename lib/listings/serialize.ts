import { z } from "zod";
import type { ListingRow, MediaRow, PropertyRow } from "../../db/schema";
import { deletedSchema, pageSchema } from "../schemas/paging";

const TranslationOut = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  source: z.enum(["manual", "ai"]),
  translatedAt: z.string(),
});

export const ListingSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    type: z.enum(["sale", "rental"]),
    price: z.string().nullable().meta({ description: "Decimal string with two places.", example: "450000.00" }),
    currency: z.string(),
    priceVisibility: z.enum(["public", "private"]),
    visibility: z.enum(["public", "private"]),
    stage: z.string(),
    status: z.string().nullable(),
    listingCode: z.string(),
    propertyId: z.uuid(),
    isPrimaryMarket: z.enum(["true", "false"]),
    typologyId: z.uuid().nullable(),
    translations: z.object({ en: TranslationOut.optional(), es: TranslationOut.optional() }),
    typeSpecificData: z.record(z.string(), z.unknown()),
    acceptanceCriteria: z.record(z.string(), z.unknown()),
    publishedAt: z.string().nullable().meta({ description: "First time the listing reached the active stage." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Listing" });

export type Listing = z.infer<typeof ListingSchema>;

/** `listListings`: one page of listings. */
export const ListingPageSchema = pageSchema(ListingSchema, "ListingPage", "Listings matching the filters, over all pages.");

/** `deleteListing`. */
export const DeletedListingSchema = deletedSchema("DeletedListing");

export function serializeListing(l: ListingRow): Listing {
  return {
    id: l.id,
    title: l.title,
    description: l.description,
    type: l.type,
    price: l.price,
    currency: l.currency,
    priceVisibility: l.priceVisibility,
    visibility: l.visibility,
    stage: l.stage,
    status: l.status,
    listingCode: l.listingCode,
    propertyId: l.propertyId,
    isPrimaryMarket: l.isPrimaryMarket === "true" ? "true" : "false",
    typologyId: l.typologyId,
    translations: l.translations,
    typeSpecificData: l.typeSpecificData,
    acceptanceCriteria: l.acceptanceCriteria,
    publishedAt: l.publishedAt?.toISOString() ?? null,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

const MediaOut = z.object({
  id: z.uuid(),
  type: z.enum(["photo", "floor_plan"]),
  url: z.string(),
  alt: z.string().nullable(),
  category: z.string().nullable(),
  order: z.number(),
  isPrimary: z.boolean(),
});

export const PropertySchema = z
  .object({
    id: z.uuid(),
    title: z.string().nullable(),
    type: z.string(),
    bedrooms: z.number().nullable(),
    bathrooms: z.number().nullable(),
    suites: z.number().nullable(),
    parkingSpaces: z.number().nullable(),
    totalArea: z.string().nullable(),
    usableArea: z.string().nullable(),
    privateArea: z.string().nullable(),
    features: z.array(z.string()),
    condominiumFee: z.string().nullable(),
    propertyTax: z.string().nullable(),
    assignedToId: z.uuid().nullable(),
    buildingId: z.uuid().nullable(),
    owner: z.object({
      name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      whatsapp: z.string().nullable(),
      cpf: z.string().nullable(),
    }),
    internalNotes: z.string().nullable(),
    media: z.array(MediaOut),
    videoUrl: z.string().nullable(),
    virtualTourUrl: z.string().nullable(),
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Property" });

export const LocationOutSchema = z
  .object({
    street: z.string().nullable(),
    number: z.string().nullable(),
    complement: z.string().nullable(),
    neighborhood: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postalCode: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  })
  .meta({ id: "LocationOut" });

export const PropertyWithListingsSchema = z
  .object({ property: PropertySchema, location: LocationOutSchema, listings: z.array(ListingSchema) })
  .meta({ id: "PropertyWithListings" });

export type PropertyWithListings = z.infer<typeof PropertyWithListingsSchema>;

export function serializeProperty(p: PropertyRow, mediaRows: MediaRow[]): z.infer<typeof PropertySchema> {
  return {
    id: p.id,
    title: p.title,
    type: p.type,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    suites: p.suites,
    parkingSpaces: p.parkingSpaces,
    totalArea: p.totalArea,
    usableArea: p.usableArea,
    privateArea: p.privateArea,
    features: p.features,
    condominiumFee: p.condominiumFee,
    propertyTax: p.propertyTax,
    assignedToId: p.assignedToId,
    buildingId: p.buildingId,
    owner: { name: p.ownerName, email: p.ownerEmail, phone: p.ownerPhone, whatsapp: p.ownerWhatsapp, cpf: p.ownerCpf },
    internalNotes: p.internalNotes,
    media: mediaRows
      .slice()
      .sort((a, b) => a.order - b.order)
      .map((m) => ({ id: m.id, type: m.type, url: m.url, alt: m.alt, category: m.category, order: m.order, isPrimary: m.isPrimary })),
    videoUrl: p.videoUrl,
    virtualTourUrl: p.virtualTourUrl,
    createdById: p.createdById,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function serializeLocation(p: PropertyRow): z.infer<typeof LocationOutSchema> {
  return {
    street: p.street,
    number: p.number,
    complement: p.complement,
    neighborhood: p.neighborhood,
    city: p.city,
    state: p.state,
    postalCode: p.postalCode,
    latitude: p.latitude,
    longitude: p.longitude,
  };
}
