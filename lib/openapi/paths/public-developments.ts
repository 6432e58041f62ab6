import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  SiteBuildingSchema,
  SiteTypologiesSchema,
  SiteTypologyListingsSchema,
  SiteTypologySchema,
  SiteUnitsSchema,
  TypologiesQuery,
  TypologyQuery,
} from "../../sites/developments";
import { LocationValidationSchema, LocationsQuery, SiteLocationsSchema, ValidateQuery } from "../../sites/locations";
import { PUBLIC_NOTES, PUBLIC_SECURITY, UNKNOWN_PARAMETER, publicErrors, publicOk, siteIdParam } from "../public-common";

const typologyParams = siteIdParam.extend({ typologyId: z.string().meta({ description: "Typology id (UUID)." }) });
const note = `Rate limit: 60 requests per minute.\n\n${PUBLIC_NOTES}`;

export function registerPublicDevelopmentPaths(r: OpenAPIRegistry): void {
  const base = { tags: ["Public sites"], security: PUBLIC_SECURITY };
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/typologies",
    operationId: "listSiteTypologies",
    summary: "A development's typologies",
    description: `Active typologies shown on the site, of one building, in their order. ${note}`,
    request: { params: siteIdParam, query: TypologiesQuery },
    responses: {
      200: publicOk("The typologies.", SiteTypologiesSchema),
      ...publicErrors({ 400: "`buildingId parameter is required`, or `buildingId` is not a UUID (`invalid_parameter`).", 404: "`Site not found`." }, 60),
    },
  });
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/typologies/{typologyId}",
    operationId: "getSiteTypology",
    summary: "One typology",
    description: `With \`includeUnits=true\` the typology carries \`units[]\` and \`unitStats\`. ${note}`,
    request: { params: typologyParams, query: TypologyQuery },
    responses: {
      200: publicOk("The typology.", SiteTypologySchema),
      ...publicErrors({ 400: "`includeUnits` is not true or false.", 404: "`Site not found` or `Typology not found`." }, 60),
    },
  });
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/typologies/{typologyId}/units",
    operationId: "listSiteTypologyUnits",
    summary: "A typology's units",
    description: `Units shown on the site, ordered by unit number; no buyer or reservation data. ${note}`,
    request: { params: typologyParams },
    responses: {
      200: publicOk("The units.", SiteUnitsSchema),
      ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Typology not found`." }, 60),
    },
  });
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/typologies/{typologyId}/listings",
    operationId: "listSiteTypologyListings",
    summary: "A typology's listings",
    description: `Public listings of the typology in the tenant's active stage; a private price is null. ${note}`,
    request: { params: typologyParams },
    responses: {
      200: publicOk("The listings.", SiteTypologyListingsSchema),
      ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Typology not found`." }, 60),
    },
  });
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/buildings/{buildingId}",
    operationId: "getSiteBuilding",
    summary: "A development's building",
    description: `The building record (§2.4). ${note}`,
    request: { params: siteIdParam.extend({ buildingId: z.string().meta({ description: "Building id (UUID)." }) }) },
    responses: {
      200: publicOk("The building.", SiteBuildingSchema),
      ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Building not found`." }, 60),
    },
  });
}

export function registerPublicLocationPaths(r: OpenAPIRegistry): void {
  const base = { tags: ["Public sites"], security: PUBLIC_SECURITY };
  const locNote = `Built from the listings the site's search shows; slugs fold accents to lowercase with dashes. Rate limit: 30 requests per minute.\n\n${PUBLIC_NOTES}`;
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/locations",
    operationId: "listSiteLocations",
    summary: "Location pages of a site",
    description: `Without \`segment\`: \`states\`, \`cities\`, \`neighborhoods\`, \`streets\`, each a map from slug to \`{slug, name, count}\`. With \`segment\`: \`{segment, match: {type, value} | null}\`. ${locNote}`,
    request: { params: siteIdParam, query: LocationsQuery },
    responses: {
      200: publicOk("Locations.", SiteLocationsSchema),
      ...publicErrors({ 400: "`segment` longer than 200 characters.", 404: "`Site not found`." }, 30),
    },
  });
  r.registerPath({
    ...base,
    method: "get",
    path: "/api/sites/{siteId}/locations/validate",
    operationId: "validateSiteLocation",
    summary: "Validate a location path",
    description: `\`path\` such as \`sp/sao-paulo/pinheiros\` (at most 4 levels). An invalid path is still 200, with \`valid: false\`, an \`error\` code (\`missing_path\`, \`empty_path\`, \`path_too_deep\`, \`state_not_found\`, \`city_not_in_state\`, \`neighborhood_not_in_city\`, \`no_listings\`) and a \`message\`. Breadcrumb paths start with \`/{baseRoute}\` (default \`imoveis\`). ${locNote}`,
    request: { params: siteIdParam, query: ValidateQuery },
    responses: {
      200: publicOk("The validation result.", LocationValidationSchema),
      ...publicErrors({ 400: "`baseRoute` is not URL segments, or `path` longer than 1000 characters.", 404: "`Site not found`." }, 30),
    },
  });
}
