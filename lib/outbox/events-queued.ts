import { z } from "zod";
import { jobEvent } from "../jobs/define-job";

/**
 * Sent after a commit that queued outbound deliveries (its events selected by the tenant's webhook),
 * so delivery starts at once instead of at the next poll. Events no webhook selects queue nothing
 * and wake nothing: most of a busy tenant's events (chat messages) are of that kind.
 */
export const eventsQueued = jobEvent("crm/events.queued", z.object({}));

/** The events the saved-search matcher reads (`changesOf`); it steps over every other one. */
export const LISTING_CHANGE_EVENTS: readonly string[] = ["listing.created", "listing.updated"];

/**
 * Sent after a commit that wrote a listing's creation or change, to wake the saved-search matcher.
 * Other events move its cursor too, but only the next listing event (or its schedule) needs it to
 * read them, in one batch, so they wake nothing.
 */
export const listingEventsRecorded = jobEvent("crm/listing-events.recorded", z.object({}));
