import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { SITE_POLICIES } from "../../rate-limit/policies";
import { SyncFavouritesAnswerSchema, SyncFavouritesBody } from "../../visitors/sync-favourites";
import { PUBLIC_NOTES, PUBLIC_SECURITY, publicErrors, publicOk } from "../public-common";

export function registerPublicVisitorPaths(r: OpenAPIRegistry): void {
  const perMinute = SITE_POLICIES.visitor_favourites.points;
  r.registerPath({
    method: "post",
    path: "/api/sites/{siteId}/visitors/{visitorId}/favourites",
    tags: ["Public sites"],
    operationId: "syncVisitorFavourites",
    summary: "Sync a visitor's favourites",
    description:
      "The favourites a visitor's browser keeps for this site (no account: `visitorId` is a random UUID the browser made), and what it " +
      "compared or viewed. `listingIds` replaces the stored favourites; `compared` adds; `viewed` is kept only once the visitor has " +
      "identified (sent the lead form or left a contact in the chat with this `visitorId`). Every id must be a listing of the site's own " +
      "tenant that the site shows now, else 400 naming the field and item (`listing_not_available`). Once the visitor is a lead, what " +
      "is new is added to that deal's `interests` (`GET /api/v1/crm/deals/{id}`). The answer holds nothing but the ids sent. " +
      `Rate limit: ${perMinute} requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: {
      params: z.object({
        siteId: z.string().meta({ description: "Site id (UUID); anything else answers 404 `Site not found`." }),
        visitorId: z.string().meta({ description: "The visitor's random id (a UUID; anything else is a 400)." }),
      }),
      body: { required: true, content: { "application/json": { schema: SyncFavouritesBody } } },
    },
    responses: {
      200: publicOk("The stored favourites.", SyncFavouritesAnswerSchema),
      ...publicErrors(
        {
          400: "`visitorId` not a UUID, a body field that is missing or wrong (`invalid_request` naming it), or a listing the site does not show (`listing_not_available`, naming `listingIds.N`).",
          404: "`Site not found`: unknown or inactive site.",
        },
        perMinute,
      ),
    },
  });
}
