import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { SiteSchema } from "../../sites/serialize-site";
import { CreateSiteSchema, UpdateSiteSchema } from "../../sites/site-schemas";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const SiteListSchema = z.object({ items: z.array(SiteSchema) }).meta({ id: "SiteList" });
const DeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) }).meta({ id: "DeletedSite" });
const siteId = uuidParam("siteId", "site");

const ABOUT =
  "A site is the tenant's public website: `/api/sites` serves its configuration, catalogue and content to any origin " +
  "without credentials. `domain` is a lowercase host name (optionally with `:port` for local use) and is unique across " +
  "all tenants (`409 domain_taken`). `configuration.puck_data` is Puck editor data (`root`, `content[]` of `{type, props}`, " +
  "optional `zones`), at most 512 KB, stored as sent. `listingCriteria` limits the catalogue (property types, locations, " +
  "`marketType`); `includeNetworkListings` adds partner networks' listings to it. Only an `active` and `published` site " +
  "resolves publicly.";

export function registerSitePaths(r: OpenAPIRegistry): void {
  const admin = `\n\n${ABOUT}\n\n${ADMIN_ONLY}`;
  r.registerPath({
    method: "get", path: "/api/v1/sites", tags: ["Sites"], operationId: "listSites",
    summary: "List the tenant's sites", description: `Every site of the tenant, newest first.${admin}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The tenant's sites.", SiteListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post", path: "/api/v1/sites", tags: ["Sites"], operationId: "createSite",
    summary: "Create a site", description: `Creates a site; \`active\` defaults to true and \`published\` to false.${admin}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateSiteSchema) } },
    responses: {
      201: ok("The new site.", SiteSchema),
      ...errors({ 400: "Invalid body (`invalid_request` with `issues`).", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 409: "The domain is used by another site (`domain_taken`).", 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "get", path: "/api/v1/sites/{siteId}", tags: ["Sites"], operationId: "getSite",
    summary: "Read a site", description: `One site of the tenant.${admin}`,
    security: API_KEY_SECURITY, request: { params: siteId },
    responses: { 200: ok("The site.", SiteSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`)." }) },
  });
  r.registerPath({
    method: "patch", path: "/api/v1/sites/{siteId}", tags: ["Sites"], operationId: "updateSite",
    summary: "Change a site", description: `Partial update: fields not sent are kept; \`configuration\` and \`listingCriteria\` are replaced whole when sent.${admin}`,
    security: API_KEY_SECURITY,
    request: { params: siteId, body: { required: true, content: jsonContent(UpdateSiteSchema) } },
    responses: {
      200: ok("The site after the change.", SiteSchema),
      ...errors({ 400: "Invalid body (`invalid_request` with `issues`).", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`).", 409: "The domain is used by another site (`domain_taken`).", 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "delete", path: "/api/v1/sites/{siteId}", tags: ["Sites"], operationId: "deleteSite",
    summary: "Delete a site", description: `Deletes the site with its CMS collections and entries; its public endpoints answer 404 from then on.${admin}`,
    security: API_KEY_SECURITY, request: { params: siteId },
    responses: { 200: ok("The deleted site's id.", DeletedSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`)." }) },
  });
}
