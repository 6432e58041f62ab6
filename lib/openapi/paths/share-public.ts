import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { PriceEstimateBody, PriceEstimateSchema } from "../../share/price-estimate";
import { PricingLeadAcceptedSchema, PricingLeadBody } from "../../share/pricing-lead";
import { NeighborhoodsQuery, NeighborhoodsSchema } from "../../share/pricing-neighborhoods";
import { PricingToolSchema } from "../../share/pricing-tool";
import { ResolveBodySchema, ShareResolveSchema } from "../../share/resolve-share";
import { API_KEY_SECURITY, NOT_ADMIN, UNAUTHORIZED_KEY, errors, ok } from "../common";
import { ErrorSchema, jsonContent, TOO_LARGE, UNAVAILABLE } from "../common";
import { PUBLIC_SECURITY } from "../public-common";

const HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "Cache-Control": {
    description: "`private, no-store`: a link's answer may sit behind a password, and a deactivated link stops opening at once.",
    schema: { type: "string" as const },
  },
  "Access-Control-Allow-Origin": { description: "`*`", schema: { type: "string" as const } },
};
const err = (description: string): ResponseConfig => ({ description, headers: HEADERS, content: jsonContent(ErrorSchema) });
export const SHARE_ERRORS: Record<string, ResponseConfig> = {
  404: err("`not_found` (`Share link not found`): unknown token, inactive link, entity gone, or hidden by `hideSharesForStages` / `autoHideTerminalStages`."),
  410: err("`expired` (`Share link has expired`): the expiry instant has passed."),
  401: err("`password_required` (`Password required`): the link is protected and no password was sent (every GET of a protected link)."),
  403: err("`password_invalid` (`Invalid password`)."),
  429: err(
    "`rate_limited`: more than 60 requests per minute from this address, or 5 wrong passwords on this link within 15 minutes (then every attempt is refused until the window ends, whatever the address); `Retry-After` says when.",
  ),
  500: err("Unexpected failure (`internal_error`)."),
  503: err(UNAVAILABLE),
};
const tokenParam = z.object({ token: z.string().meta({ description: "The share token (32 URL-safe characters); anything else is a 404." }) });
const ABOUT =
  "Opens a share link without credentials, from any origin. What the entity shows follows the tenant's `sharingConfig`. " +
  "Each successful open is recorded (time, a keyed hash of the client address, user agent, referrer) in the background.";

const PRICING_ERRORS = (perMinute: number, bad: string): Record<string, ResponseConfig> => ({
  400: err(bad),
  404: err("`not_found` (`Share link not found`): unknown token, inactive or rotated link, or a token of another kind than `pricing_tool`."),
  410: SHARE_ERRORS[410],
  401: err("`password_required`: the pricing link was given a password (the helpers take none; open it through the resolve)."),
  429: err(`\`rate_limited\`: more than ${perMinute} requests per minute from this address; \`Retry-After\` says when.`),
  500: SHARE_ERRORS[500],
  503: SHARE_ERRORS[503],
});
const PRICING_ABOUT =
  "A helper of the pricing tool (`pricing_tool` share links, opened at `/c/{token}`): no credentials, any origin, the token checked " +
  "like any share link. Answers are `private, no-store`.";

export function registerPublicSharePaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/sites/share/{token}/price-estimate",
    tags: ["Public share links"],
    operationId: "pricingEstimate",
    summary: "Estimate a property's sale price",
    description:
      `${PRICING_ABOUT}\n\nValues a flat property profile from the tenant's comparable listings for sale in the city (public listings on air ` +
      "or in a terminal stage with a public price; with `sharingConfig.pricingTool.includeNetworkListings`, also its partner networks' shared " +
      "listings on air). The 12 nearest by location (the middle of the named neighbourhood), then size, bedrooms, bathrooms and parking, of " +
      "the same type family (apartment/studio/penthouse, house/condo house, office/commercial, land) give the weighted median price per m²; " +
      "the point is that times the area. The range is the point times exp(±1.96 · sd), where sd is the forecast standard deviation: the " +
      "comparables' robust spread (MAD of their log price per m²) inflated for the uncertainty of their median. `confidence.score` is " +
      "1 − sd. `explanation` gives the method in one sentence and the comparables anonymised (neighbourhood, area rounded to 5 m², " +
      "bedrooms, price per m² rounded to 100, distance band): never ids, addresses, exact prices, owners or internal fields. Fewer than 3 " +
      "comparables answer 200 with `estimate: null` and `confidence.level: low`. Accuracy is measured by `npm run bench:pricing` (README). " +
      "30 requests per minute per address.",
    security: PUBLIC_SECURITY,
    request: {
      params: tokenParam,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: PriceEstimateBody,
            example: { city: "sao-paulo-sp", neighborhood: "Pinheiros", propertyType: "apartment", bedrooms: 2, bathrooms: 2, parkingSpaces: 1, totalArea: 78 },
          },
        },
      },
    },
    responses: {
      200: { description: "The estimate.", headers: HEADERS, content: jsonContent(PriceEstimateSchema) },
      ...PRICING_ERRORS(
        30,
        "Invalid body (`invalid_request` with `issues`, `invalid_json`), a `propertyType` that is not one of the tenant's, or a `city` that is not one of the tool's (`unknown_city`).",
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/share/{token}/neighborhoods",
    tags: ["Public share links"],
    operationId: "pricingNeighborhoods",
    summary: "Autocomplete neighbourhood names",
    description:
      `${PRICING_ABOUT}\n\nUp to 10 canonical neighbourhood names of the tenant's listings in the city, matching \`q\` ignoring accents and ` +
      "case: names starting with it first, then names with a word starting with it, then names within a typo (trigram word similarity " +
      "≥ 0.3), then the busiest. An empty `q` lists the city's main neighbourhoods. 120 requests per minute per address.",
    security: PUBLIC_SECURITY,
    request: { params: tokenParam, query: NeighborhoodsQuery },
    responses: {
      200: { description: "The names, best match first.", headers: HEADERS, content: jsonContent(NeighborhoodsSchema) },
      ...PRICING_ERRORS(
        120,
        "`city` missing or not one of the tool's cities (`unknown_city`), `q` longer than 80 characters, or an unknown parameter (`invalid_request`).",
      ),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/sites/share/{token}/pricing-lead",
    tags: ["Public share links"],
    operationId: "pricingLead",
    summary: "Capture a homeowner's lead",
    description:
      `${PRICING_ABOUT}\n\nStores the lead (contact, profile, the estimate the visitor saw, intent and consent) as an inbound lead of the ` +
      "tenant's `pricing_tool` marketing channel (created with the first lead; its distribution queue assigns the deals) before answering " +
      "202, then lead processing makes a sale deal with the owner as `seller` and the estimate in `custom.additionalNotes`. When `intent` is " +
      "`sell`, `sharingConfig.pricingTool.sellerIntentCreates` is `deal_and_draft_listing` and street, number, postal code and neighbourhood " +
      "were given, the property is also captured as a draft property with a private listing (geocoded; an existing property at the same " +
      "address is reused), linked to the deal in `custom.leadListings`. 10 requests per minute per address.",
    security: PUBLIC_SECURITY,
    request: {
      params: tokenParam,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: PricingLeadBody,
            example: {
              contact: { name: "Marina Souza", email: "marina@example.com", phone: "+5511987654321" },
              property: {
                city: "sao-paulo-sp",
                neighborhood: "Pinheiros",
                propertyType: "apartment",
                bedrooms: 2,
                bathrooms: 2,
                parkingSpaces: 1,
                totalArea: 78,
                street: "Rua dos Pinheiros",
                number: "500",
                postalCode: "05422-000",
              },
              estimate: { value: 1010000, low: 880000, high: 1160000 },
              intent: "sell",
              consent: true,
            },
          },
        },
      },
    },
    responses: {
      202: {
        description: "Stored; it becomes a deal (and a draft listing) in the background.",
        headers: HEADERS,
        content: jsonContent(PricingLeadAcceptedSchema),
      },
      ...PRICING_ERRORS(
        10,
        "Invalid body (`invalid_request` with `issues`, `invalid_json`): contact without a name or without both e-mail and phone, a phone or CEP that is not one, `consent` not `true`, an `estimate` with `low ≤ value ≤ high` broken, an unknown `propertyType`, or an unknown `city` (`unknown_city`).",
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/share/{token}",
    tags: ["Public share links"],
    operationId: "resolveShareLink",
    summary: "Open a share link",
    description: `${ABOUT} A password-protected link answers 401 here: send the password with POST.`,
    security: PUBLIC_SECURITY,
    request: { params: tokenParam },
    responses: { 200: { description: "The resolve response of spec 2 §2.8.", headers: HEADERS, content: jsonContent(ShareResolveSchema) }, ...SHARE_ERRORS },
  });
  r.registerPath({
    method: "post",
    path: "/api/sites/share/{token}",
    tags: ["Public share links"],
    operationId: "resolveShareLinkWithPassword",
    summary: "Open a share link (with its password)",
    description: `${ABOUT} The body is optional for links without a password.`,
    security: PUBLIC_SECURITY,
    request: { params: tokenParam, body: { required: false, content: jsonContent(ResolveBodySchema) } },
    responses: {
      200: { description: "The resolve response of spec 2 §2.8.", headers: HEADERS, content: jsonContent(ShareResolveSchema) },
      400: err("The body is not JSON (`invalid_json`) or `password` is not a string (`invalid_request`)."),
      413: err(TOO_LARGE),
      ...SHARE_ERRORS,
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/pricing-tool",
    tags: ["Share links"],
    operationId: "getPricingTool",
    summary: "The tenant's pricing tool",
    description:
      "The permanent token of the tenant's pricing tool (a `pricing_tool` share link, opened at `/c/{token}`), issued on first read, " +
      "with the cities it can value (those where the tenant has priced sale listings with an area).\n\nNeeds a broad API key of an owner or admin.",
    security: API_KEY_SECURITY,
    responses: { 200: ok("The pricing tool.", PricingToolSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/settings/pricing-tool/rotate",
    tags: ["Share links"],
    operationId: "rotatePricingTool",
    summary: "Rotate the pricing tool's token",
    description: "Issues a new token; the old one answers 404 at once.\n\nNeeds a broad API key of an owner or admin.",
    security: API_KEY_SECURITY,
    responses: { 200: ok("The pricing tool with its new token.", PricingToolSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
}
