import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { PricingToolSchema } from "../../share/pricing-tool";
import { ResolveBodySchema } from "../../share/resolve-share";
import { API_KEY_SECURITY, NOT_ADMIN, UNAUTHORIZED_KEY, errors, ok } from "../common";
import { ErrorSchema, jsonContent } from "../common";
import { PUBLIC_SECURITY } from "../public-common";

const Option = z.object({ id: z.string(), label: z.string() });
const Doc = z.record(z.string(), z.unknown());

export const ShareResolveSchema = z
  .object({
    token: z.object({ id: z.uuid(), entityType: z.string(), entityId: z.uuid(), dealId: z.uuid().nullable(), createdBy: z.uuid().nullable() }),
    entity: z
      .object({ type: z.enum(["listing", "shortlist", "seller_report", "visit_itinerary", "pricing_tool"]) })
      .catchall(z.unknown())
      .meta({
        description:
          "By `type`: `listing` → `listing` (the §2.2 detail document narrowed by the tenant's `fieldVisibility`), `property` (type, rooms, areas, " +
          "features, `address` at the allowed level, `coordinates` `{latitude, longitude, approximate}` unless hidden, `condoFee`/`propertyTax` when " +
          "financials are visible), `medias[]` (`id`, `src`, `alt`, `type`, `category`, `order`, `isPrimary`), `agent` (broker card or null); " +
          "`seller_report` → the same plus `stats` (`views`: opens of the listing's share links; `leads`: deals naming the listing; `daysOnMarket` " +
          "since first publication, or null); `shortlist` → `shortlist` (`id`, `name`, `description`), `listings[]` (summary documents, in order; " +
          "listings hidden by the rules drop out), `listingCount`; `visit_itinerary` → `itinerary` (`id`, `name`, `scheduledDate`), `stops[]` " +
          "(`order`, `listingId`, `time`, `notes`, `listing`), `meetingPoint`, `routeCache`, `stopCount`; `pricing_tool` → `pricingTool` with `cities[]` " +
          "(`code`, `label`, `state`). Approximate coordinates are displaced 150 to 500 m by an offset fixed per link.",
      }),
    branding: z.object({ name: z.string(), logo: z.string().nullable(), primaryColor: z.string() }),
    tenantConfig: z.object({ propertyFeatures: z.array(Option), buildingFeatures: z.array(Option), primaryMarketEnabled: z.boolean(), propertyTypes: z.array(Option) }),
    site: z.object({ hasSite: z.boolean(), domain: z.string().nullable(), siteId: z.uuid().nullable() }),
    tenantId: z.uuid(),
    showFinancialSimulator: z.boolean().meta({ description: "`sharingConfig.showFinancialSimulator`, for the page: false hides the financing simulator on the shared share domain." }),
  })
  .meta({ id: "ShareResolve" });

const HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "Cache-Control": { description: "`private, no-store`: a link's answer may sit behind a password, and a deactivated link stops opening at once.", schema: { type: "string" as const } },
  "Access-Control-Allow-Origin": { description: "`*`", schema: { type: "string" as const } },
};
const err = (description: string): ResponseConfig => ({ description, headers: HEADERS, content: jsonContent(ErrorSchema) });
export const SHARE_ERRORS: Record<string, ResponseConfig> = {
  404: err("`not_found` (`Share link not found`): unknown token, inactive link, entity gone, or hidden by `hideSharesForStages` / `autoHideTerminalStages`."),
  410: err("`expired` (`Share link has expired`): the expiry instant has passed."),
  401: err("`password_required` (`Password required`): the link is protected and no password was sent (every GET of a protected link)."),
  403: err("`password_invalid` (`Invalid password`)."),
  429: err("`rate_limited`: more than 60 requests per minute from this address, or 5 wrong passwords on this link within 15 minutes (then every attempt is refused until the window ends, whatever the address); `Retry-After` says when."),
  500: err("Unexpected failure (`internal_error`)."),
};
const tokenParam = z.object({ token: z.string().meta({ description: "The share token (32 URL-safe characters); anything else is a 404." }) });
const ABOUT =
  "Opens a share link without credentials, from any origin. What the entity shows follows the tenant's `sharingConfig`. " +
  "Each successful open is recorded (time, a keyed hash of the client address, user agent, referrer) in the background.";

export function registerPublicSharePaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get", path: "/api/sites/share/{token}", tags: ["Public share links"], operationId: "resolveShareLink",
    summary: "Open a share link", description: `${ABOUT} A password-protected link answers 401 here: send the password with POST.`,
    security: PUBLIC_SECURITY, request: { params: tokenParam },
    responses: { 200: { description: "The resolve response of spec 2 §2.8.", headers: HEADERS, content: jsonContent(ShareResolveSchema) }, ...SHARE_ERRORS },
  });
  r.registerPath({
    method: "post", path: "/api/sites/share/{token}", tags: ["Public share links"], operationId: "resolveShareLinkWithPassword",
    summary: "Open a share link (with its password)", description: `${ABOUT} The body is optional for links without a password.`,
    security: PUBLIC_SECURITY, request: { params: tokenParam, body: { required: false, content: jsonContent(ResolveBodySchema) } },
    responses: {
      200: { description: "The resolve response of spec 2 §2.8.", headers: HEADERS, content: jsonContent(ShareResolveSchema) },
      400: err("The body is not JSON or `password` is not a string (`invalid_request`)."), ...SHARE_ERRORS,
    },
  });
  r.registerPath({
    method: "get", path: "/api/v1/settings/pricing-tool", tags: ["Share links"], operationId: "getPricingTool",
    summary: "The tenant's pricing tool", description:
      "The permanent token of the tenant's pricing tool (a `pricing_tool` share link, opened at `/c/{token}`), issued on first read, " +
      "with the cities it can value (those where the tenant has priced sale listings with an area).\n\nNeeds a broad API key of an owner or admin.",
    security: API_KEY_SECURITY,
    responses: { 200: ok("The pricing tool.", PricingToolSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post", path: "/api/v1/settings/pricing-tool/rotate", tags: ["Share links"], operationId: "rotatePricingTool",
    summary: "Rotate the pricing tool's token", description: "Issues a new token; the old one answers 404 at once.\n\nNeeds a broad API key of an owner or admin.",
    security: API_KEY_SECURITY,
    responses: { 200: ok("The pricing tool with its new token.", PricingToolSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
}
