import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { jobsMode } from "@/lib/jobs/mode";
import { otherMethods } from "@/lib/http/method-not-allowed";

const handlers = serve({ client: inngest, functions });
type Handler = (typeof handlers)["GET"];

const RUNS_WHERE = { off: "nowhere: JOBS_RUNNER=off", worker: "in the jobs worker process", embedded: "in-process", inngest: "here" } as const;

/**
 * Inngest's endpoint exists only when Inngest runs the background work. Otherwise it answers a
 * JSON 404 that says so, without touching the SDK (which would answer 500 and log on every call).
 */
const whenOn =
  (h: Handler): Handler =>
  (...args) =>
    jobsMode() === "inngest"
      ? h(...args)
      : Promise.resolve(
          Response.json(
            {
              error: {
                code: "not_found",
                message: `Inngest is off in this installation (background work runs ${RUNS_WHERE[jobsMode()]}). Set INNGEST_SIGNING_KEY and INNGEST_EVENT_KEY (or INNGEST_DEV) to serve the functions here.`,
              },
            },
            { status: 404, headers: { "cache-control": "no-store" } },
          ),
        );

export const GET = whenOn(handlers.GET);
export const POST = whenOn(handlers.POST);
export const PUT = whenOn(handlers.PUT);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PATCH, DELETE } = otherMethods("GET", "POST", "PUT");
