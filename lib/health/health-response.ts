import { z } from "zod";
import { requestIdFrom } from "../http/request-id";

const Check = z.enum(["ok", "failing"]);

/** The body of `GET /api/health/ready`, 200 and 503 alike: which checks pass (`readiness`). */
export const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.object({
      database: Check.meta({ description: "The database answers a query within 2 seconds." }),
      migrations: Check.meta({ description: "Every migration of this build is applied." }),
      jobs: Check.meta({ description: "The in-process job runner is alive (always ok when Inngest runs the background work)." }),
      accepting: Check.meta({ description: "The server is not shutting down." }),
      clientAddress: Check.meta({
        description:
          "Requests reach the routes with their client's address (rate limits count it); the server checks it at start and does not serve without it.",
      }),
    }),
  })
  .meta({ id: "Readiness" });

/** The body of `GET /api/health`. */
export const LivenessSchema = z.object({ status: z.literal("ok") });

/**
 * Health answers skip the request log and the error wrapper of API routes on purpose: probes
 * come every few seconds (they would drown the log), and liveness must answer even while the
 * server drains, when API routes answer 503.
 */
export function healthResponse(req: Request, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", "x-request-id": requestIdFrom(req.headers), ...headers } });
}
