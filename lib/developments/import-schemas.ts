import { z } from "zod";

const Text = (max = 500) => z.string().trim().max(max).nullable().optional();
const Int = z.number().int().min(0).max(100_000).nullable().optional();
const Decimal = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, "must be a decimal string such as 650000.00")
  .nullable()
  .optional();
const IsoDate = z.iso.date({ error: "must be a date such as 2027-06-30" }).nullable().optional();
const ExternalId = z.string().trim().min(1).max(200);

export const ImportUnitSchema = z.strictObject({
  externalId: ExternalId,
  unitNumber: z.string().trim().min(1).max(40),
  blockTower: Text(80),
  floor: Text(20),
  status: z.enum(["available", "reserved", "sold", "unavailable"]).default("available"),
  price: Decimal,
  showOnSite: z.boolean().default(true),
});

export const ImportTypologySchema = z.strictObject({
  externalId: ExternalId,
  name: z.string().trim().min(1).max(200),
  code: Text(80),
  reference: Text(200),
  description: Text(20_000),
  bedrooms: Int,
  bathrooms: Int,
  suites: Int,
  totalArea: Decimal,
  privateArea: Decimal,
  parkingSpaces: Int,
  basePrice: Decimal,
  pricePerSqm: Decimal,
  features: z.record(z.string(), z.unknown()).optional(),
  files: z.array(z.unknown()).max(200).optional(),
  totalUnits: Int,
  expectedDelivery: Text(60),
  constructionStatus: Text(60),
  order: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().default(true),
  showOnSite: z.boolean().default(true),
  units: z.array(z.unknown()).max(5000).default([]),
});

export const ImportBuildingSchema = z.strictObject({
  externalId: ExternalId,
  name: z.string().trim().min(1).max(200),
  description: Text(20_000),
  developer: Text(200),
  publisher: Text(200),
  administrator: Text(200),
  launchDate: IsoDate,
  openingDate: IsoDate,
  numberOfTowers: Int,
  buildingPermit: Text(200),
  portfolio: z.array(z.string().max(500)).max(200).optional(),
  totalUnits: Int,
  floors: Int,
  yearBuilt: z.number().int().min(1800).max(2200).nullable().optional(),
  amenities: z.record(z.string(), z.unknown()).optional(),
  street: Text(200),
  number: Text(20),
  neighborhood: Text(120),
  city: Text(120),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "must be a two-letter state code such as SP")
    .nullable()
    .optional(),
  postalCode: z
    .string()
    .trim()
    .regex(/^\d{5}-?\d{3}$/, "must be a CEP such as 01310-100")
    .nullable()
    .optional(),
  typologies: z.array(z.unknown()).max(500).default([]),
});

export const MAX_IMPORT_BUILDINGS = 500;
export const ImportBodySchema = z.strictObject({
  buildings: z.array(z.unknown()).min(1, "send at least one building").max(MAX_IMPORT_BUILDINGS, `at most ${MAX_IMPORT_BUILDINGS} buildings per request`),
});

export const ImportResultSchema = z
  .object({
    kind: z.enum(["building", "typology", "unit"]),
    path: z.string().meta({ example: "buildings.0.typologies.1" }),
    externalId: z.string().nullable(),
    id: z.uuid().nullable(),
    status: z.enum(["created", "updated", "error"]),
    message: z.string().optional(),
  })
  .meta({ id: "BuildingImportResult" });
export type ImportResult = z.infer<typeof ImportResultSchema>;

/** The answer of `importBuildings`: one result per building, typology and unit. */
export const ImportResultsSchema = z.object({ results: z.array(ImportResultSchema) });
