import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { jobsMode } from "@/lib/jobs/mode";

const handlers = serve({ client: inngest, functions });
type Handler = (typeof handlers)["GET"];

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
                message: `Inngest is off in this installation (background work runs ${jobsMode() === "off" ? "nowhere: JOBS_RUNNER=off" : "in-process"}). Set INNGEST_SIGNING_KEY and INNGEST_EVENT_KEY (or INNGEST_DEV) to serve the functions here.`,
              },
            },
            { status: 404, headers: { "cache-control": "no-store" } },
          ),
        );

export const GET = whenOn(handlers.GET);
export const POST = whenOn(handlers.POST);
export const PUT = whenOn(handlers.PUT);
