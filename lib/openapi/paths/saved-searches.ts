import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateSavedSearchBody, SavedSearchCreatedSchema } from "../../saved-searches/create";
import { ListSavedSearchesQuery, SavedSearchPageSchema } from "../../saved-searches/crm-list";
import { SITE_POLICIES } from "../../rate-limit/policies";
import { API_KEY_SECURITY, errors, jsonContent, ok, UNAUTHORIZED_KEY } from "../common";
import { PUBLIC_SECURITY, publicErrors, publicOk, siteIdParam } from "../public-common";

const ListQueryDoc = ListSavedSearchesQuery.extend({
  page: ListSavedSearchesQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListSavedSearchesQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50).",
  }),
});

const ABOUT =
  "**Double opt-in.** The search is stored `pending` with the visitor's LGPD consent (time and source: site, page, client address, user agent) " +
  "before the answer; a confirmation message with the link `/alertas/confirmar/{token}` (on the site, in the visitor's `locale`) goes by the chosen " +
  "channel, and nothing else is sent until it is followed. Then the search is `active` and becomes a lead of the site's website marketing channel " +
  "(contact, deal, broker; its filters in the lead's message and interest). Every alert carries `/alertas/sair/{token}` (one click, at once; on e-mail " +
  "also `List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`).\n\n" +
  "**Alerts.** A listing of the site that newly matches (created, published, back on air) or whose price falls: `instant` searches get at most one " +
  "alert an hour (what matches meanwhile waits for the next), `daily` ones one digest a day at the digest hour. A listing is sent to a search once, " +
  "again only when its price falls below the price last sent.";

export function registerSavedSearchPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/sites/{siteId}/saved-searches",
    tags: ["Public sites"],
    operationId: "createSavedSearch",
    summary: 'Save the catalogue\'s filters for alerts ("Avise-me")',
    description:
      "`filters` takes the catalogue's filters (its URL parameters without `sort`, `page`, `view`); unknown keys are a 400, and `propertyType` must be " +
      "one of the agency's. `channel: email` needs `contact.email`, `whatsapp` needs `contact.phone`; `consent` must be `true`. Answers are " +
      `\`Cache-Control: private, no-store\`. Rate limit: ${SITE_POLICIES.saved_search.points} requests per minute per client address.\n\n${ABOUT}`,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam, body: { required: true, content: jsonContent(CreateSavedSearchBody) } },
    responses: {
      201: publicOk("Stored; the confirmation message follows.", SavedSearchCreatedSchema),
      ...publicErrors(
        {
          400: "Invalid body (`invalid_request` with `issues`, `invalid_json`): bad or unknown filters, a missing or malformed e-mail or phone for the channel, `consent` not `true`.",
          404: "`Site not found`: unknown or inactive site.",
        },
        SITE_POLICIES.saved_search.points,
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/saved-searches",
    tags: ["Deals"],
    operationId: "listSavedSearches",
    summary: "List site visitors' saved searches",
    description:
      "The tenant's saved searches, newest first, with their filters, contact, consent and the deal they became (`dealId`; filter with `dealId`, " +
      "`status`, `siteId`). A broad key of an owner, admin or manager sees all; a restricted key, and any broker's key, sees those whose deal its " +
      `member can see. Unknown parameters are a 400.\n\n${ABOUT}`,
    security: API_KEY_SECURITY,
    request: { query: ListQueryDoc },
    responses: {
      200: ok("One page of saved searches.", SavedSearchPageSchema),
      ...errors({ 400: "Invalid query (`invalid_request` with `issues`).", 401: UNAUTHORIZED_KEY }),
    },
  });
}
