import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { TypologiesQuery, TypologyQuery } from "../../sites/developments";
import { LocationsQuery, ValidateQuery } from "../../sites/locations";
import { PUBLIC_NOTES, PUBLIC_SECURITY, UNKNOWN_PARAMETER, publicErrors, publicOk, siteIdParam } from "../public-common";

const Unit = z
  .object({
    id: z.uuid(), typologyId: z.uuid(), unitNumber: z.string(), blockTower: z.string().nullable(), floor: z.string().nullable(),
    status: z.enum(["available", "reserved", "sold", "unavailable"]), price: z.string().nullable(), propertyId: z.uuid().nullable(),
  })
  .meta({ id: "PublicUnit" });
const UnitStats = z.object({ available: z.number(), reserved: z.number(), sold: z.number(), unavailable: z.number(), total: z.number() }).meta({ id: "UnitStats" });
const Typology = z
  .object({
    id: z.uuid(), buildingId: z.uuid(), name: z.string(), code: z.string().nullable(), reference: z.string().nullable(), description: z.string().nullable(),
    bedrooms: z.number().nullable(), bathrooms: z.number().nullable(), suites: z.number().nullable(), totalArea: z.string().nullable(), privateArea: z.string().nullable(),
    parkingSpaces: z.number().nullable(), basePrice: z.string().nullable(), pricePerSqm: z.string().nullable(), features: z.record(z.string(), z.unknown()), files: z.array(z.unknown()),
    availableUnits: z.number(), totalUnits: z.number(), expectedDelivery: z.string().nullable(), constructionStatus: z.string().nullable(), order: z.number(),
    units: z.array(Unit).optional(), unitStats: UnitStats.optional(),
  })
  .meta({ id: "PublicTypology" });
const Building = z.record(z.string(), z.unknown()).meta({
  id: "PublicBuilding",
  description: "Spec 2 §2.4: `id`, `name`, `description`, `developer`, `publisher`, `administrator`, `launchDate`, `openingDate`, `numberOfTowers`, `buildingPermit`, `portfolio`, `totalUnits`, `floors`, `yearBuilt`, `amenities`, `locationId`.",
});
const TypologyListing = z
  .object({ id: z.uuid(), title: z.string(), description: z.string(), type: z.string(), price: z.string().nullable(), listingCode: z.string().nullable(), typologyId: z.uuid(), isPrimaryMarket: z.enum(["true", "false"]), visibility: z.string(), stage: z.string() })
  .meta({ id: "TypologyListing" });
const typologyParams = siteIdParam.extend({ typologyId: z.string().meta({ description: "Typology id (UUID)." }) });
const note = `Rate limit: 60 requests per minute.\n\n${PUBLIC_NOTES}`;

export function registerPublicDevelopmentPaths(r: OpenAPIRegistry): void {
  const base = { tags: ["Public sites"], security: PUBLIC_SECURITY };
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/typologies", operationId: "listSiteTypologies", summary: "A development's typologies",
    description: `Active typologies shown on the site, of one building, in their order. ${note}`,
    request: { params: siteIdParam, query: TypologiesQuery },
    responses: { 200: publicOk("The typologies.", z.object({ typologies: z.array(Typology) })), ...publicErrors({ 400: "`buildingId parameter is required`, or `buildingId` is not a UUID (`invalid_parameter`).", 404: "`Site not found`." }, 60) },
  });
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/typologies/{typologyId}", operationId: "getSiteTypology", summary: "One typology",
    description: `With \`includeUnits=true\` the typology carries \`units[]\` and \`unitStats\`. ${note}`,
    request: { params: typologyParams, query: TypologyQuery },
    responses: { 200: publicOk("The typology.", z.object({ typology: Typology })), ...publicErrors({ 400: "`includeUnits` is not true or false.", 404: "`Site not found` or `Typology not found`." }, 60) },
  });
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/typologies/{typologyId}/units", operationId: "listSiteTypologyUnits", summary: "A typology's units",
    description: `Units shown on the site, ordered by unit number; no buyer or reservation data. ${note}`,
    request: { params: typologyParams },
    responses: { 200: publicOk("The units.", z.object({ units: z.array(Unit) })), ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Typology not found`." }, 60) },
  });
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/typologies/{typologyId}/listings", operationId: "listSiteTypologyListings", summary: "A typology's listings",
    description: `Public listings of the typology in the tenant's active stage; a private price is null. ${note}`,
    request: { params: typologyParams },
    responses: { 200: publicOk("The listings.", z.object({ listings: z.array(TypologyListing) })), ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Typology not found`." }, 60) },
  });
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/buildings/{buildingId}", operationId: "getSiteBuilding", summary: "A development's building",
    description: `The building record (§2.4). ${note}`,
    request: { params: siteIdParam.extend({ buildingId: z.string().meta({ description: "Building id (UUID)." }) }) },
    responses: { 200: publicOk("The building.", z.object({ building: Building })), ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Building not found`." }, 60) },
  });
}

const LocationEntry = z.object({ slug: z.string(), name: z.string(), count: z.number() });
const LocationMap = z.record(z.string(), LocationEntry);
const Crumb = z.object({ slug: z.string(), name: z.string(), type: z.enum(["state", "city", "neighborhood", "street"]), path: z.string() });

export function registerPublicLocationPaths(r: OpenAPIRegistry): void {
  const base = { tags: ["Public sites"], security: PUBLIC_SECURITY };
  const locNote = `Built from the listings the site's search shows; slugs fold accents to lowercase with dashes. Rate limit: 30 requests per minute.\n\n${PUBLIC_NOTES}`;
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/locations", operationId: "listSiteLocations", summary: "Location pages of a site",
    description: `Without \`segment\`: \`states\`, \`cities\`, \`neighborhoods\`, \`streets\`, each a map from slug to \`{slug, name, count}\`. With \`segment\`: \`{segment, match: {type, value} | null}\`. ${locNote}`,
    request: { params: siteIdParam, query: LocationsQuery },
    responses: {
      200: publicOk("Locations.", z.union([z.object({ states: LocationMap, cities: LocationMap, neighborhoods: LocationMap, streets: LocationMap }), z.object({ segment: z.string(), match: z.object({ type: z.string(), value: z.string() }).nullable() })])),
      ...publicErrors({ 400: "`segment` longer than 200 characters.", 404: "`Site not found`." }, 30),
    },
  });
  r.registerPath({
    ...base, method: "get", path: "/api/sites/{siteId}/locations/validate", operationId: "validateSiteLocation", summary: "Validate a location path",
    description: `\`path\` such as \`sp/sao-paulo/pinheiros\` (at most 4 levels). An invalid path is still 200, with \`valid: false\`, an \`error\` code (\`missing_path\`, \`empty_path\`, \`path_too_deep\`, \`state_not_found\`, \`city_not_in_state\`, \`neighborhood_not_in_city\`, \`no_listings\`) and a \`message\`. Breadcrumb paths start with \`/{baseRoute}\` (default \`imoveis\`). ${locNote}`,
    request: { params: siteIdParam, query: ValidateQuery },
    responses: {
      200: publicOk("The validation result.", z.object({ valid: z.boolean(), error: z.string().optional(), message: z.string().optional(), matches: z.object({ state: z.string().nullable(), city: z.string().nullable(), neighborhood: z.string().nullable() }), breadcrumb: z.array(Crumb) })),
      ...publicErrors({ 400: "`baseRoute` is not URL segments, or `path` longer than 1000 characters.", 404: "`Site not found`." }, 30),
    },
  });
}
