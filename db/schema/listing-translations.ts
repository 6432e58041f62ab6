import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { listings } from "./listings";
import { tenants } from "./tenants";

/**
 * Listings whose Portuguese title or description was created or changed while the tenant's
 * automatic translation is on: the translation job's queue, one row per listing. A new change
 * moves `requestedAt` (and resets the attempts), so a run that translated older text knows it is
 * stale. Claimed with SKIP LOCKED; a claim older than a few minutes belongs to a run that died.
 */
export const listingTranslationQueue = pgTable(
  "listing_translation_queue",
  {
    listingId: uuid("listing_id")
      .primaryKey()
      .references(() => listings.id, { onDelete: "cascade" }),
    tenantId: parentRef("tenant_id", () => tenants.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [index("listing_translation_queue_due_idx").on(t.nextAttemptAt)],
);
