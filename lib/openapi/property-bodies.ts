import { z } from "zod";
import { CreateListingSchema, CreatePropertySchema, NestedListingUpdateSchema, UpdatePropertySchema } from "../listings/schemas";

/**
 * Documentation-only request bodies of the property endpoints. The real schemas parse each
 * `listings[]` item with `NestedListingSchema`, a `z.unknown().transform(...)` that picks the
 * update or create schema at parse time and so renders as an empty schema. Here the item is the
 * union of those same two schemas, so no field list is copied.
 */
export const NestedListingItemSchema = z.union([NestedListingUpdateSchema, CreateListingSchema]).meta({
  id: "NestedListingItem",
  description:
    "An item with `id` updates that existing listing of the property (every field optional, translations allowed); " +
    "an item without `id` creates a listing (`title` and `type` required).",
});

const nestedListings = z.array(NestedListingItemSchema).max(20);

export const CreatePropertyRequestSchema = CreatePropertySchema.extend({
  // `.optional()` rather than the parser's `.default([])`: Swagger UI prefers a default over the example.
  listings: nestedListings.optional().meta({
    description: "Listings to create with the property (at most 20; none when omitted). Items must not carry `id` on create.",
    example: [
      { title: "Apartamento 2 quartos na Vila Mariana", type: "sale", price: "450000.00", stage: "active", isPrimaryMarket: "false" },
      { title: "Apartamento 2 quartos para alugar", type: "rental", price: "3200.00", typeSpecificData: { deposit: 9600, furnished: false } },
    ],
  }),
}).meta({ id: "CreatePropertyRequest" });

export const UpdatePropertyRequestSchema = UpdatePropertySchema.extend({
  listings: nestedListings.optional().meta({
    description:
      "At most 20 items. With `id`: updates that listing of this property (the only way to write its translations). " +
      "Without `id`: creates a new listing. Listings not mentioned are left untouched (never deleted).",
    example: [
      {
        id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        visibility: "public",
        translations: { en: { title: "2-bedroom apartment in Vila Mariana", source: "manual" } },
      },
    ],
  }),
}).meta({ id: "UpdatePropertyRequest" });
