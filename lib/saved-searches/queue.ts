import { z } from "zod";
import { jobEvent } from "../jobs/define-job";

/** Sent after a commit that left saved-search messages to send (a confirmation, alerts due now). */
export const savedSearchMessagesDue = jobEvent("crm/saved-search.messages-due", z.object({}));
