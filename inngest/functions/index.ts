import { jobs } from "../../lib/jobs/registry";
import { inngestFunctionsOf } from "./from-job";

/** Every function the app serves at /api/inngest: the job registry, as Inngest functions. */
export const functions = jobs.flatMap(inngestFunctionsOf);
