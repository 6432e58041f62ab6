import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { BrokerQuery, ListingBrokerSchema, PublicBrokersQuery, PublicBrokersSchema } from "../../sites/brokers";
import { PropertyDetailQuery } from "../../sites/property-detail";
import { PublicListingDocumentSchema } from "../../sites/public-document";
import { PublicSearchBody, PublicSearchResultSchema } from "../../sites/public-search";
import { SimilarListingsSchema, SimilarQuery } from "../../sites/similar";
import { SiteMapQuery, SiteMapSchema } from "../../sites/site-map";
import { jsonContent } from "../common";
import { PUBLIC_NOTES, PUBLIC_SECURITY, publicErrors, publicOk, siteIdParam } from "../public-common";

const listingParams = siteIdParam.extend({ listingId: z.string().meta({ description: "Listing UUID or listing code." }) });

export function registerPublicCataloguePaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/map",
    tags: ["Public sites"],
    operationId: "siteMap",
    summary: "The site's catalogue on a map: clusters and pins",
    description:
      "The listings the site's search shows (same automatic filters; `q`, `query_by` and `filter_by` as in the search) whose public point lies in " +
      "`bbox`, gridded by `zoom` on the server: a cell with at most 4 listings answers them as pins, a fuller one as a cluster (count, mean point, " +
      "box of its points). Points are the public ones, rounded to 3 decimals (about 100 m), for the box test too. Listings without a point are " +
      "not on the map. Rate limit: 60 requests per minute.\n\n" +
      PUBLIC_NOTES,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam, query: SiteMapQuery },
    responses: {
      200: publicOk("Clusters, pins and their total.", SiteMapSchema),
      ...publicErrors(
        {
          400: "`bbox` missing, not 4 finite numbers, out of range, west >= east (ask a box across the antimeridian as two) or south >= north; `zoom` not an integer 0-22; a bad `filter_by`.",
          404: "`Site not found`.",
        },
        60,
      ),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/sites/{siteId}/search",
    tags: ["Public sites"],
    operationId: "searchSite",
    summary: "Search the site's catalogue",
    description:
      "Typesense-style search over the site's listings. Automatic filters, ANDed outside `filter_by` so it cannot widen them: public listings in the " +
      "tenant's active stage, the site's listing criteria, and other tenants' network listings only when the site includes them. `query_by`, " +
      "`sort_by`, `facet_by` and `filter_by` accept only public fields. Rate limit: 60 requests per minute.\n\n" +
      PUBLIC_NOTES,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam, body: { content: jsonContent(PublicSearchBody) } },
    responses: {
      200: publicOk("Hits, facet counts and timing.", PublicSearchResultSchema),
      ...publicErrors({ 400: "Malformed body or `filter_by` (with the position), a non-public field, `per_page` above 250.", 404: "`Site not found`." }, 60),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/property/{id}",
    tags: ["Public sites"],
    operationId: "getSiteProperty",
    summary: "A listing's detail document",
    description: `By listing UUID or listing code, when the site's search could show it. Rate limit: 100 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam.extend({ id: z.string().meta({ description: "Listing UUID or listing code." }) }), query: PropertyDetailQuery },
    responses: {
      200: publicOk("The detail document.", PublicListingDocumentSchema),
      ...publicErrors(
        { 400: "`shortlistId` is not a UUID (`invalid_parameter`).", 403: "`Site not active`.", 404: "`Site not found` or `Property not found`." },
        100,
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/listings/{listingId}/broker",
    tags: ["Public sites"],
    operationId: "getListingBroker",
    summary: "The broker card of a listing",
    description: `The property's assigned member, else the listing's creator (active members only). \`{suppressed: true}\` for a partner network's listing. Rate limit: 60 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: listingParams, query: BrokerQuery },
    responses: {
      200: publicOk("The card, or `{suppressed: true}`.", ListingBrokerSchema),
      204: { description: "The listing has no broker: no body." },
      ...publicErrors({ 400: "`tenantId` is not a UUID.", 404: "`Site not found` or `Property not found`." }, 60),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/brokers/public",
    tags: ["Public sites"],
    operationId: "listPublicBrokers",
    summary: "Public profiles of brokers by id",
    description: `Active members of the site's tenant among \`ids\` (comma-separated UUIDs, at most 100); others are absent. No e-mail. Rate limit: 60 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam, query: PublicBrokersQuery },
    responses: {
      200: publicOk("The brokers.", PublicBrokersSchema),
      ...publicErrors({ 400: "`ids` missing, more than 100, or not UUIDs.", 404: "`Site not found`." }, 60),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/listings/{listingId}/similar",
    tags: ["Public sites"],
    operationId: "listSimilarListings",
    summary: "Listings similar to one",
    description:
      "Same business and property type from the site's catalogue, ranked by neighborhood (+4), city (+2), price within 20 % (+3) or 40 % (+1), bedrooms (+2 equal, +1 one apart), " +
      "area within 20 % (+2) or 40 % (+1), newest first among equals. A missing or invisible reference gives `{listings: [], total: 0}`. Rate limit: 60 requests per minute.\n\n" +
      PUBLIC_NOTES,
    security: PUBLIC_SECURITY,
    request: { params: listingParams, query: SimilarQuery },
    responses: { 200: publicOk("Listing cards.", SimilarListingsSchema), ...publicErrors({ 400: "`limit` above 12.", 404: "`Site not found`." }, 60) },
  });
}
