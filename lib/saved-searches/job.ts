import { defineJob } from "../jobs/define-job";
import { sendJobEvent } from "../jobs/dispatch";
import { listingEventsRecorded } from "../outbox/events-queued";
import { sendSavedSearchMessages } from "./deliver";
import { matchSavedSearches } from "./match";
import { savedSearchMessagesDue } from "./queue";

/**
 * Saved-search matching, fed by the outbox: woken by every commit that recorded a listing event, it
 * reads each tenant's new events after its cursor (stepping over the others) and records the hits.
 * The schedule is the backstop for a lost wake-up. Runs until caught up.
 */
export const matchSavedSearchesJob = defineJob({
  id: "match-saved-searches",
  step: "match-saved-searches",
  retries: 3,
  schedule: { functionId: "match-saved-searches-cron", cron: "* * * * *", embeddedEveryMs: () => 10_000 },
  trigger: { functionId: "match-saved-searches-on-events", event: listingEventsRecorded, coalesce: true },
  run: async (_data, { db }) => {
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const read = await matchSavedSearches(db);
      total += read;
      if (!read) break;
    }
    return { read: total };
  },
});

/**
 * Saved-search messages: confirmations of new searches, and alerts when due (an instant search's
 * hourly cap, a daily search's digest hour). Woken when a search is saved or hits are recorded;
 * the schedule sends what waited for the cap or the digest hour, and retries failed sends.
 */
export const sendSavedSearchMessagesJob = defineJob({
  id: "send-saved-search-messages",
  step: "send-saved-search-messages",
  retries: 2,
  schedule: { functionId: "send-saved-search-messages-cron", cron: "* * * * *", embeddedEveryMs: () => 30_000 },
  trigger: { functionId: "send-saved-search-messages-on-due", event: savedSearchMessagesDue, coalesce: true },
  run: async (_data, { db }) => {
    const { sent, more } = await sendSavedSearchMessages(db);
    // The run stopped with messages still due: the next run starts now, not at the schedule.
    if (more) sendJobEvent(savedSearchMessagesDue, {});
    return { claimed: sent, more };
  },
});
