import { runAgentExecutionsJob } from "../agents/job";
import { firstContactJob } from "../leads/first-contact/job";
import { processLeadsJob } from "../leads/inbound/lead-job";
import { processMessagingEventsJob } from "../messaging/inbound/job";
import { fireScheduledMessagesJob } from "../messaging/scheduled/job";
import { processProviderNotificationsJob } from "../providers/job";
import { pruneSearchRemovalsJob } from "../search/prune-removals";
import { deliverEventsJob } from "../event-delivery/deliver-job";
import { translateListingsJob } from "../listing-translation/job";
import { matchSavedSearchesJob, sendSavedSearchMessagesJob } from "../saved-searches/job";
import type { JobDefinition } from "./define-job";

/**
 * Every background job of the service. Both runners read this list: adding work (lead processing,
 * scheduled sends, provider notifications) is adding a definition here, not new wiring.
 */
export const jobs: readonly JobDefinition[] = [
  deliverEventsJob,
  processLeadsJob,
  processMessagingEventsJob,
  processProviderNotificationsJob,
  fireScheduledMessagesJob,
  pruneSearchRemovalsJob,
  translateListingsJob,
  runAgentExecutionsJob,
  firstContactJob,
  matchSavedSearchesJob,
  sendSavedSearchMessagesJob,
];
