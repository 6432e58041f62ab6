import { z } from "zod";
import { jobEvent } from "../jobs/define-job";

/** Sent after a commit that queued outbound events, so delivery starts at once instead of at the next poll. */
export const eventsQueued = jobEvent("crm/events.queued", z.object({}));
