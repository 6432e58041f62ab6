import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ListListingsQuery } from "../../listings/listings";
import { UpdateListingSchema } from "../../listings/schemas";
import { DeletedListingSchema, ListingPageSchema, ListingSchema } from "../../listings/serialize";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";
import { ACCESS, LISTING_EVENTS, LISTING_FIELDS, TOO_MANY_PAGES, TRANSLATIONS } from "./listing-texts";

/**
 * `page` and `pageSize` are parsed as text then piped into a number range, and only the text side
 * renders (a string with a digits pattern, no bounds): give the documented integer bounds here.
 */
const ListListingsQueryDoc = ListListingsQuery.extend({
  page: ListListingsQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListListingsQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50). Above 100 is a 400, never clamped.",
  }),
});

const listingId = uuidParam("id", "listing");

export function registerListingPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/real-estate/listings",
    tags: ["Listings"],
    operationId: "listListings",
    summary: "List listings",
    description:
      "Reads listings from the relational store: consistent right after a write and returning the full row, newest " +
      "first (`createdAt` descending). Envelope `{items, total, page, pageSize}`. `page` defaults to 1 and `pageSize` " +
      `to 50 with a maximum of 100: ${TOO_MANY_PAGES} A page past the end has empty \`items\`. Unknown or misspelled ` +
      "query parameters are a 400 instead of being ignored.\n\n" +
      `${ACCESS}\n\n${LISTING_FIELDS}`,
    security: API_KEY_SECURITY,
    request: { query: ListListingsQueryDoc },
    responses: {
      200: ok("One page of listings.", ListingPageSchema),
      ...errors({
        400: "Invalid query: `page` or `pageSize` not a whole number or out of range (`pageSize` > 100), an invalid enum value, or an unknown parameter (`invalid_request` with `issues`).",
        401: UNAUTHORIZED_KEY,
      }),
    },
  });

  r.registerPath({
    method: "get",
    path: "/api/v1/real-estate/listings/{id}",
    tags: ["Listings"],
    operationId: "getListing",
    summary: "Read one listing",
    description: `The listing with the fields of a listing row.\n\n${ACCESS}\n\n${LISTING_FIELDS}`,
    security: API_KEY_SECURITY,
    request: { params: listingId },
    responses: {
      200: ok("The listing.", ListingSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        404: "No such listing in the tenant, or one this key may not see (`not_found`).",
      }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/real-estate/listings/{id}",
    tags: ["Listings"],
    operationId: "updateListing",
    summary: "Change a listing",
    description:
      'Partial update, e.g. `{"visibility": "private"}`; send at least one field. Every writable field is accepted ' +
      "except `translations` (a 400 pointing to `PATCH /properties/{propertyId}`); unknown fields are a 400.\n\n" +
      `${LISTING_FIELDS}\n\n${TRANSLATIONS}\n\n${ACCESS}\n\n${LISTING_EVENTS}`,
    security: API_KEY_SECURITY,
    request: { params: listingId, body: { required: true, content: jsonContent(UpdateListingSchema) } },
    responses: {
      200: ok("The listing after the change.", ListingSchema),
      ...errors({
        400: "Invalid or empty body, `translations` sent, a stage or status the tenant's workflow does not have, `typeSpecificData` keys of the other type, an unknown `typologyId`, or `isPrimaryMarket: 'false'` with a typology (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key (or a broker's key) changing a public listing of a property that is not assigned to or created by its member (`forbidden`).",
        404: "No such listing in the tenant, or one this key may not see (`not_found`).",
        409: "`listingCode` already used by another listing of the tenant (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "delete",
    path: "/api/v1/real-estate/listings/{id}",
    tags: ["Listings"],
    operationId: "deleteListing",
    summary: "Delete a listing",
    description:
      "Deletes the listing (the property and its other listings stay). Writes `listing.deleted` with the last state of " +
      `the listing in the same transaction.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: listingId },
    responses: {
      200: ok("The listing was deleted.", DeletedListingSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: "A restricted key (or a broker's key) deleting a public listing of a property that is not assigned to or created by its member (`forbidden`).",
        404: "No such listing in the tenant, or one this key may not see (`not_found`).",
      }),
    },
  });
}
