import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  CmsCollectionListSchema,
  CmsCollectionSchema,
  CmsEntryPageSchema,
  CmsEntrySchema,
  CreateCollectionSchema,
  CreateEntrySchema,
  DeletedCmsSchema,
  EntriesQuery,
  PublicCmsCollectionListSchema,
  PublicCmsEntrySchema,
  TenantEntriesQuery,
  UpdateCollectionSchema,
  UpdateEntrySchema,
} from "../../cms/cms-schemas";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";
import { PUBLIC_NOTES, PUBLIC_SECURITY, UNKNOWN_PARAMETER, publicErrors, publicOk, siteIdParam } from "../public-common";

const site = uuidParam("siteId", "site");
const collection = site.extend({ collectionId: z.uuid().meta({ description: "CMS collection id." }) });
const entry = collection.extend({ entryId: z.uuid().meta({ description: "CMS entry id." }) });
const FIELD_RULES =
  "Entry `fields` are checked against the collection's definitions: unknown ids, missing required values and values of the wrong type " +
  "(`text`/`richText` strings, `number`, `boolean`, ISO `date`, `image`/`url` as http(s) URLs or paths) are 400s. `publishedAt` is set when an entry is first published and kept.";

export function registerCmsPaths(r: OpenAPIRegistry): void {
  const tenant = { tags: ["Sites"], security: API_KEY_SECURITY };
  const e = (extra: Record<number, string> = {}) =>
    errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such site, collection or entry in this tenant.", ...extra });
  r.registerPath({
    ...tenant,
    method: "get",
    path: "/api/v1/sites/{siteId}/cms/collections",
    operationId: "listCmsCollections",
    summary: "A site's CMS collections",
    description: ADMIN_ONLY,
    request: { params: site },
    responses: { 200: ok("The collections.", CmsCollectionListSchema), ...e() },
  });
  r.registerPath({
    ...tenant,
    method: "post",
    path: "/api/v1/sites/{siteId}/cms/collections",
    operationId: "createCmsCollection",
    summary: "Add a CMS collection",
    description: `\`slug\` is unique per site (409 \`slug_taken\`) and is the collection's address on the site (\`/{slug}\`), so the site's own routes are refused (400): \`imoveis\`, \`imovel\`, \`empreendimento\`, \`contato\`, \`comparar\`, \`lead\`, \`p\`, \`c\`, \`s\`, \`api\`, \`site\`, \`en\`, \`es\`, \`pt-br\` and the internal \`*-render\` routes (also on rename). Field ids are unique within the collection.\n\n${ADMIN_ONLY}`,
    request: { params: site, body: { required: true, content: jsonContent(CreateCollectionSchema) } },
    responses: {
      201: ok("The collection.", CmsCollectionSchema),
      ...e({ 400: "Invalid body, or a slug reserved by the site's own routes.", 409: "The slug is taken on this site.", 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    ...tenant,
    method: "patch",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}",
    operationId: "updateCmsCollection",
    summary: "Change a CMS collection",
    description: ADMIN_ONLY,
    request: { params: collection, body: { required: true, content: jsonContent(UpdateCollectionSchema) } },
    responses: { 200: ok("The collection.", CmsCollectionSchema), ...e({ 400: "Invalid body.", 409: "The slug is taken on this site." }) },
  });
  r.registerPath({
    ...tenant,
    method: "delete",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}",
    operationId: "deleteCmsCollection",
    summary: "Delete a CMS collection",
    description: `Deletes its entries too.\n\n${ADMIN_ONLY}`,
    request: { params: collection },
    responses: { 200: ok("Deleted.", DeletedCmsSchema), ...e() },
  });
  r.registerPath({
    ...tenant,
    method: "get",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}/entries",
    operationId: "listCmsEntries",
    summary: "A collection's entries",
    description: `Drafts and published, most recently changed first.\n\n${ADMIN_ONLY}`,
    request: { params: collection, query: TenantEntriesQuery },
    responses: { 200: ok("A page of entries.", CmsEntryPageSchema), ...e({ 400: "Invalid query." }) },
  });
  r.registerPath({
    ...tenant,
    method: "post",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}/entries",
    operationId: "createCmsEntry",
    summary: "Add a CMS entry",
    description: `${FIELD_RULES}\n\n${ADMIN_ONLY}`,
    request: { params: collection, body: { required: true, content: jsonContent(CreateEntrySchema) } },
    responses: { 201: ok("The entry.", CmsEntrySchema), ...e({ 400: "Invalid body or fields.", 409: "The slug is taken in this collection." }) },
  });
  r.registerPath({
    ...tenant,
    method: "get",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}/entries/{entryId}",
    operationId: "getCmsEntry",
    summary: "A CMS entry",
    description: ADMIN_ONLY,
    request: { params: entry },
    responses: { 200: ok("The entry.", CmsEntrySchema), ...e() },
  });
  r.registerPath({
    ...tenant,
    method: "patch",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}/entries/{entryId}",
    operationId: "updateCmsEntry",
    summary: "Change a CMS entry",
    description: `${FIELD_RULES}\n\n${ADMIN_ONLY}`,
    request: { params: entry, body: { required: true, content: jsonContent(UpdateEntrySchema) } },
    responses: { 200: ok("The entry.", CmsEntrySchema), ...e({ 400: "Invalid body or fields.", 409: "The slug is taken in this collection." }) },
  });
  r.registerPath({
    ...tenant,
    method: "delete",
    path: "/api/v1/sites/{siteId}/cms/collections/{collectionId}/entries/{entryId}",
    operationId: "deleteCmsEntry",
    summary: "Delete a CMS entry",
    description: ADMIN_ONLY,
    request: { params: entry },
    responses: { 200: ok("Deleted.", DeletedCmsSchema), ...e() },
  });

  const pub = { tags: ["Public sites"], security: PUBLIC_SECURITY };
  const note = `Rate limit: 60 requests per minute.\n\n${PUBLIC_NOTES}`;
  r.registerPath({
    ...pub,
    method: "get",
    path: "/api/sites/{siteId}/cms/collections",
    operationId: "listPublicCmsCollections",
    summary: "A site's CMS collections",
    description: note,
    request: { params: siteIdParam },
    responses: { 200: publicOk("The collections.", PublicCmsCollectionListSchema), ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found`." }, 60) },
  });
  r.registerPath({
    ...pub,
    method: "get",
    path: "/api/sites/{siteId}/cms/collections/{slug}",
    operationId: "getPublicCmsCollection",
    summary: "One CMS collection",
    description: note,
    request: { params: siteIdParam.extend({ slug: z.string() }) },
    responses: {
      200: publicOk("The collection.", CmsCollectionSchema),
      ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found` or `Collection not found`." }, 60),
    },
  });
  r.registerPath({
    ...pub,
    method: "get",
    path: "/api/sites/{siteId}/cms/{collection}/entries",
    operationId: "listPublicCmsEntries",
    summary: "Published entries of a collection",
    description: `Only published entries, newest publication first; \`limit\` default 50, at most 100. ${note}`,
    request: { params: siteIdParam.extend({ collection: z.string().meta({ description: "Collection slug." }) }), query: EntriesQuery },
    responses: {
      200: publicOk("A page of entries.", CmsEntryPageSchema),
      ...publicErrors({ 400: "`limit` above 100 or a negative `offset`.", 404: "`Site not found` or `Collection not found`." }, 60),
    },
  });
  r.registerPath({
    ...pub,
    method: "get",
    path: "/api/sites/{siteId}/cms/{collection}/entries/{entrySlug}",
    operationId: "getPublicCmsEntry",
    summary: "One published entry",
    description: note,
    request: { params: siteIdParam.extend({ collection: z.string(), entrySlug: z.string() }) },
    responses: {
      200: publicOk("The entry.", PublicCmsEntrySchema),
      ...publicErrors({ 400: UNKNOWN_PARAMETER, 404: "`Site not found`, `Collection not found`, or `Entry not found` (missing or unpublished)." }, 60),
    },
  });
}
