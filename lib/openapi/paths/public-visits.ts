import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { BookVisitInput, BookedVisitSchema } from "../../visits/book-visit";
import { VisitSlotsQuery, VisitSlotsSchema } from "../../visits/visit-slots";
import { PUBLIC_NOTES, PUBLIC_SECURITY, publicErrors, publicOk, siteIdParam } from "../public-common";

const listingParams = siteIdParam.extend({ listingId: z.string().meta({ description: "Listing UUID or listing code." }) });

const WHO =
  "**Who shows the listing.** Its broker (the broker card's member: the property's responsible member, else the listing's creator) " +
  "when that member published availability (`PUT /api/v1/members/{id}/availability`); otherwise the tenant's visit queue: every " +
  "active member with published availability, a slot being free while any of them is (the booking goes to the first free one, " +
  "oldest member first). A partner network's listing offers no slots.";

export function registerPublicVisitPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/listings/{listingId}/visit-slots",
    tags: ["Public sites"],
    operationId: "listingVisitSlots",
    summary: "Free visit slots of a listing",
    description:
      "Free slots, soonest first, over `days` local days (default 14) from `from` (default now): the availability's slots minus the " +
      "broker's open visits and meetings (each holds one slot length from its due time). Slots start at least one hour from now. " +
      "Times are UTC instants; daylight-saving changes of the broker's zone are applied (a skipped local time is never offered). " +
      `Rate limit: 60 requests per minute.\n\n${WHO}\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: listingParams, query: VisitSlotsQuery },
    responses: {
      200: publicOk("The free slots (`[]` when nobody shows it).", VisitSlotsSchema),
      ...publicErrors(
        { 400: "`from` not a date or date-time, `days` not an integer 1-31, or an unknown parameter.", 404: "`Site not found` or `Property not found`." },
        60,
      ),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/sites/{siteId}/listings/{listingId}/visits",
    tags: ["Public sites"],
    operationId: "bookVisit",
    summary: "Book a visit",
    description:
      "Books one of the free slots for the visitor: a `visit` task on the broker's calendar (`task.created`), on the visitor's open " +
      "deal (a contact with this phone or e-mail) or on a new deal of the site's marketing channel assigned to that broker. The " +
      "database lets exactly one visitor hold a broker's slot: of concurrent bookings one gets 201 and the others 409 `slot_taken`. " +
      "Cancelling, deleting or moving the task frees the slot. A confirmation then goes to the visitor by WhatsApp through a channel " +
      "the broker may use, with the gates of any send, and, when the contact gave an e-mail address, by e-mail with the visit as an " +
      "`.ics` calendar file (`confirmation` says which: `whatsapp`, `email`, `both`, or `none` when nothing could be sent). " +
      `Rate limit: 5 requests per minute.\n\n${WHO}\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: {
      params: listingParams,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: BookVisitInput,
            example: { start: "2026-12-01T13:00:00.000Z", contact: { name: "Paula Souza", phone: "+5511987654321" }, consent: true },
          },
        },
      },
    },
    responses: {
      201: publicOk("The booked visit.", BookedVisitSchema),
      ...publicErrors(
        {
          400: "Invalid body (`invalid_request` with `issues`: a bad phone, `consent` not true...), a `start` that is no offered slot (`invalid_slot`), or a listing nobody shows (`visits_unavailable`).",
          404: "`Site not found` or `Property not found`.",
          409: "The slot is no longer free (`slot_taken`).",
        },
        5,
      ),
    },
  });
}
