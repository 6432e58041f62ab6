import { jobs } from "../../lib/jobs/registry";
import { inngestFunctionsOf } from "./from-job";
import { fireScheduledMessage } from "./scheduled-message";

/**
 * Every function the app serves at /api/inngest: the job registry, as Inngest functions, plus the
 * one that sleeps until a scheduled message's `sendAt` (the registry's claim jobs do not sleep).
 */
export const functions = [...jobs.flatMap(inngestFunctionsOf), fireScheduledMessage];
