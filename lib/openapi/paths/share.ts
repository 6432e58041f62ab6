import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import {
  CreateShareLinkSchema,
  ListShareLinksQuery,
  ListViewsQuery,
  ShareLinkPageSchema,
  ShareLinkSchema,
  ShareViewPageSchema,
  UpdateShareLinkSchema,
} from "../../share/share-links";
import {
  CreateShortlistSchema,
  DeletedShortlistSchema,
  ListShortlistsQuery,
  ShortlistPageSchema,
  ShortlistSchema,
  UpdateShortlistSchema,
} from "../../share/shortlists";
import {
  CreateItinerarySchema,
  DeletedItinerarySchema,
  ListItinerariesQuery,
  UpdateItinerarySchema,
  VisitItineraryPageSchema,
  VisitItinerarySchema,
} from "../../share/visit-itineraries";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const id = uuidParam("id", "record");
const BAD = "Invalid body or query (`invalid_request` with `issues`), or a referenced listing or deal that is not the tenant's.";
const ROWS = "Broad keys see the tenant's records; restricted keys see the records their member created. Another tenant's id is a 404.";

type Crud = {
  base: string;
  tag: string;
  what: string;
  op: string;
  create: z.ZodType;
  update: z.ZodType;
  item: z.ZodType;
  page: z.ZodType;
  deleted: z.ZodType;
  list: z.ZodObject;
  about: string;
};

function registerCrud(r: OpenAPIRegistry, c: Crud) {
  const d = `\n\n${c.about}\n\n${ROWS}`;
  r.registerPath({
    method: "get",
    path: c.base,
    tags: [c.tag],
    operationId: `list${c.op}s`,
    summary: `List ${c.what}s`,
    description: `Newest first, paged.${d}`,
    security: API_KEY_SECURITY,
    request: { query: c.list },
    responses: { 200: ok(`A page of ${c.what}s.`, c.page), ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "post",
    path: c.base,
    tags: [c.tag],
    operationId: `create${c.op}`,
    summary: `Create a ${c.what}`,
    description: `Creates a ${c.what}.${d}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(c.create) } },
    responses: { 201: ok(`The new ${c.what}.`, c.item), ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY, 413: TOO_LARGE }) },
  });
  r.registerPath({
    method: "get",
    path: `${c.base}/{id}`,
    tags: [c.tag],
    operationId: `get${c.op}`,
    summary: `Read a ${c.what}`,
    description: `One ${c.what}.${d}`,
    security: API_KEY_SECURITY,
    request: { params: id },
    responses: { 200: ok(`The ${c.what}.`, c.item), ...errors({ 401: UNAUTHORIZED_KEY, 404: `No such ${c.what} for this key (\`not_found\`).` }) },
  });
  r.registerPath({
    method: "patch",
    path: `${c.base}/{id}`,
    tags: [c.tag],
    operationId: `update${c.op}`,
    summary: `Change a ${c.what}`,
    description: `Partial update: fields not sent are kept; lists are replaced whole.${d}`,
    security: API_KEY_SECURITY,
    request: { params: id, body: { required: true, content: jsonContent(c.update) } },
    responses: {
      200: ok(`The ${c.what} after the change.`, c.item),
      ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY, 404: `No such ${c.what} for this key (\`not_found\`).`, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "delete",
    path: `${c.base}/{id}`,
    tags: [c.tag],
    operationId: `delete${c.op}`,
    summary: `Delete a ${c.what}`,
    description: `Deletes the ${c.what}; its share links answer 404 from then on.${d}`,
    security: API_KEY_SECURITY,
    request: { params: id },
    responses: { 200: ok("The deleted record's id.", c.deleted), ...errors({ 401: UNAUTHORIZED_KEY, 404: `No such ${c.what} for this key (\`not_found\`).` }) },
  });
}

const LINKS_ABOUT =
  "A share link opens one entity (`listing`, `shortlist`, `seller_report`, `visit_itinerary`) to anyone holding its token, " +
  "at `GET /api/sites/share/{token}`, showing only what the tenant's `sharingConfig` allows. Tokens carry 192 random bits; " +
  "an optional password is stored as an scrypt hash and never returned (`hasPassword` says whether one is set). `url` is " +
  "built from `sharingConfig.defaultShareDomain`. A private listing can be shared. The pricing tool has one permanent link " +
  "per tenant, read at `/api/v1/settings/pricing-tool`.";

export function registerSharePaths(r: OpenAPIRegistry): void {
  registerCrud(r, {
    base: "/api/v1/crm/shortlists",
    tag: "Share links",
    what: "shortlist",
    op: "Shortlist",
    create: CreateShortlistSchema,
    update: UpdateShortlistSchema,
    item: ShortlistSchema,
    page: ShortlistPageSchema,
    deleted: DeletedShortlistSchema,
    list: ListShortlistsQuery,
    about:
      "A shortlist is an ordered selection of the tenant's listings for a client (optionally tied to a deal), shared with a `shortlist` link. Every listing id must be a listing of the tenant the key may read.",
  });
  registerCrud(r, {
    base: "/api/v1/crm/visit-itineraries",
    tag: "Share links",
    what: "visit itinerary",
    op: "VisitItinerary",
    create: CreateItinerarySchema,
    update: UpdateItinerarySchema,
    item: VisitItinerarySchema,
    page: VisitItineraryPageSchema,
    deleted: DeletedItinerarySchema,
    list: ListItinerariesQuery,
    about: "A visit itinerary is a day of visits: a meeting point and ordered stops of the tenant's listings. `routeCache` is recomputed on every change.",
  });
  const linkId = uuidParam("id", "share link");
  const d = `\n\n${LINKS_ABOUT}\n\n${ROWS}`;
  const NF = "No such share link for this key (`not_found`).";
  r.registerPath({
    method: "get",
    path: "/api/v1/share-links",
    tags: ["Share links"],
    operationId: "listShareLinks",
    summary: "List share links",
    description: `Newest first, filtered by entity and state.${d}`,
    security: API_KEY_SECURITY,
    request: { query: ListShareLinksQuery },
    responses: { 200: ok("A page of links.", ShareLinkPageSchema), ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/share-links",
    tags: ["Share links"],
    operationId: "createShareLink",
    summary: "Create a share link",
    description: `Creates a link to an entity of the tenant.${d}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateShareLinkSchema) } },
    responses: {
      201: ok("The new link with its token and URL.", ShareLinkSchema),
      ...errors({
        400: BAD,
        401: UNAUTHORIZED_KEY,
        404: "The entity is not one of the tenant's (`not_found`).",
        409: "The listing is in a stage or has a status for which `sharingConfig.restrictions` prevent new links (`share_creation_prevented`; the message names the rule).",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/share-links/{id}",
    tags: ["Share links"],
    operationId: "getShareLink",
    summary: "Read a share link",
    description: `One link.${d}`,
    security: API_KEY_SECURITY,
    request: { params: linkId },
    responses: { 200: ok("The link.", ShareLinkSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NF }) },
  });
  r.registerPath({
    method: "patch",
    path: "/api/v1/share-links/{id}",
    tags: ["Share links"],
    operationId: "updateShareLink",
    summary: "Change a share link",
    description: `Sets or clears the expiry and the password (\`null\` removes either), or (de)activates the link.${d}`,
    security: API_KEY_SECURITY,
    request: { params: linkId, body: { required: true, content: jsonContent(UpdateShareLinkSchema) } },
    responses: { 200: ok("The link after the change.", ShareLinkSchema), ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY, 404: NF, 413: TOO_LARGE }) },
  });
  r.registerPath({
    method: "delete",
    path: "/api/v1/share-links/{id}",
    tags: ["Share links"],
    operationId: "deactivateShareLink",
    summary: "Deactivate a share link",
    description: `The link answers 404 from then on; its access log is kept.${d}`,
    security: API_KEY_SECURITY,
    request: { params: linkId },
    responses: { 200: ok("The deactivated link.", ShareLinkSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NF }) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/share-links/{id}/views",
    tags: ["Share links"],
    operationId: "listShareLinkViews",
    summary: "Access log of a share link",
    description: `One entry per successful open, newest first: time, a keyed hash of the client address (never the address), user agent and referrer.${d}`,
    security: API_KEY_SECURITY,
    request: { params: linkId, query: ListViewsQuery },
    responses: { 200: ok("A page of accesses.", ShareViewPageSchema), ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY, 404: NF }) },
  });
}
