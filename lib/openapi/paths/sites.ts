import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { DeletedSiteSchema, SiteListSchema, SiteSchema } from "../../sites/serialize-site";
import { CreateSiteSchema, UpdateSiteSchema } from "../../sites/site-schemas";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const siteId = uuidParam("siteId", "site");

const ABOUT =
  "A site is the tenant's public website: `/api/sites` serves its configuration, catalogue and content to any origin " +
  "without credentials. `domain` is a host name, stored normalized (lower case, international names in ASCII, no port, " +
  "no trailing dot): every spelling of one host is one name, held by at most one site across all tenants " +
  "(`409 domain_taken`). Names no site may take answer `400 domain_reserved`: the share domain (`SHARE_DOMAIN`) and " +
  "every name under it, the service's own host names, `localhost`, IP addresses, and names under `SITES_BASE_DOMAIN` " +
  "other than `{tenant-slug}.{SITES_BASE_DOMAIN}` and names under it. Names under `localhost` and your own " +
  "`{tenant-slug}.{SITES_BASE_DOMAIN}` are held at once (`domainStatus: active`); any other (custom) domain starts " +
  "`pending`: create the TXT record of `domainVerification` and call `POST /api/v1/sites/{siteId}/domain/verify`. A " +
  "pending claim blocks no one: the first site to prove a name holds it, and other claims on it become `taken`. " +
  "`configuration.puck_data` is Puck editor data (`root`, `content[]` of `{type, props}`, " +
  "optional `zones`), at most 512 KB, stored as sent. `listingCriteria` limits the catalogue (property types, locations, " +
  "`marketType`); `includeNetworkListings` adds partner networks' listings to it. Only an `active` and `published` site " +
  "resolves publicly, and only on a held domain.";

const DOMAIN_400 = "Invalid body (`invalid_request` with `issues`), or a domain no site may take (`domain_reserved`).";
const DOMAIN_409 = "Another site holds the domain, or another site of this tenant already claims it (`domain_taken`).";

export function registerSitePaths(r: OpenAPIRegistry): void {
  const admin = `\n\n${ABOUT}\n\n${ADMIN_ONLY}`;
  r.registerPath({
    method: "get",
    path: "/api/v1/sites",
    tags: ["Sites"],
    operationId: "listSites",
    summary: "List the tenant's sites",
    description: `Every site of the tenant, newest first.${admin}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The tenant's sites.", SiteListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/sites",
    tags: ["Sites"],
    operationId: "createSite",
    summary: "Create a site",
    description: `Creates a site; \`active\` defaults to true and \`published\` to false.${admin}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateSiteSchema) } },
    responses: {
      201: ok("The new site.", SiteSchema),
      ...errors({ 400: DOMAIN_400, 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 409: DOMAIN_409, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/sites/{siteId}",
    tags: ["Sites"],
    operationId: "getSite",
    summary: "Read a site",
    description: `One site of the tenant.${admin}`,
    security: API_KEY_SECURITY,
    request: { params: siteId },
    responses: { 200: ok("The site.", SiteSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`)." }) },
  });
  r.registerPath({
    method: "patch",
    path: "/api/v1/sites/{siteId}",
    tags: ["Sites"],
    operationId: "updateSite",
    summary: "Change a site",
    description: `Partial update: fields not sent are kept; \`configuration\` and \`listingCriteria\` are replaced whole when sent.${admin}`,
    security: API_KEY_SECURITY,
    request: { params: siteId, body: { required: true, content: jsonContent(UpdateSiteSchema) } },
    responses: {
      200: ok("The site after the change.", SiteSchema),
      ...errors({ 400: DOMAIN_400, 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`).", 409: DOMAIN_409, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "delete",
    path: "/api/v1/sites/{siteId}",
    tags: ["Sites"],
    operationId: "deleteSite",
    summary: "Delete a site",
    description: `Deletes the site with its CMS collections and entries; its public endpoints answer 404 from then on.${admin}`,
    security: API_KEY_SECURITY,
    request: { params: siteId },
    responses: {
      200: ok("The deleted site's id.", DeletedSiteSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site in this tenant (`not_found`)." }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/sites/{siteId}/domain/verify",
    tags: ["Sites"],
    operationId: "verifySiteDomain",
    summary: "Prove the site's domain",
    description:
      "A custom domain serves only once its owner proves control of it: create the TXT record `_imobicrm.{domain}` with the " +
      "value in `domainVerification.value`, then call this. The first site to prove a name holds it (`domainStatus: active`); " +
      "other sites' pending claims on it become `taken`. A name under `localhost` or your `{tenant-slug}.{SITES_BASE_DOMAIN}` " +
      "is held without a record as soon as no other site holds it. A held domain is answered as is." +
      admin,
    security: API_KEY_SECURITY,
    request: { params: siteId },
    responses: {
      200: ok("The site, now holding its domain.", SiteSchema),
      ...errors({
        400: "The domain is one no site may take (`domain_reserved`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "No such site in this tenant (`not_found`).",
        409: "The TXT record is missing or holds another value (`domain_not_verified`, the message names the record to create), or another site holds the name (`domain_taken`).",
        503: "The DNS servers did not answer (`dns_unavailable`); retry later.",
      }),
    },
  });
}
