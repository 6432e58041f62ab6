import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { LivenessSchema, ReadinessSchema } from "../../health/health-response";
import { OPERATOR_SECURITY, errors } from "../common";

const noStore = { "Cache-Control": { schema: { type: "string" as const, example: "no-store" } } };

export function registerHealthPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/health",
    tags: ["Health"],
    operationId: "liveness",
    summary: "Liveness",
    description: "200 while the process answers, also while it drains on shutdown. No credentials; never touches the database. Use it as the liveness probe.",
    security: [],
    responses: { 200: { description: "The process is alive.", headers: noStore, content: { "application/json": { schema: LivenessSchema } } } },
  });
  r.registerPath({
    method: "get",
    path: "/api/health/ready",
    tags: ["Health"],
    operationId: "readiness",
    summary: "Readiness",
    description:
      "200 when the server can take traffic: the database answers, migrations are applied, the job runner is alive and the server is not shutting down. " +
      "503 with `Retry-After: 5` otherwise. Each check says only `ok` or `failing`; the cause is in the server log. Use it as the readiness probe.",
    security: [],
    responses: {
      200: { description: "Ready.", headers: noStore, content: { "application/json": { schema: ReadinessSchema } } },
      503: {
        description: "Not ready: see which check fails.",
        headers: { ...noStore, "Retry-After": { schema: { type: "string" as const, example: "5" } } },
        content: { "application/json": { schema: ReadinessSchema } },
      },
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/metrics",
    tags: ["Health"],
    operationId: "metrics",
    summary: "Metrics (Prometheus)",
    description:
      "This process's metrics in the Prometheus text format: requests and latency by route group, job runs and failures, " +
      "rate-limit refusals, and (read at each scrape) inbound leads by status and the outbound event backlog with its oldest age. " +
      "Every series carries `node` and `pid`: one scrape reaches one process of one node. " +
      "Authentication: `Authorization: Bearer <METRICS_TOKEN>` or the operator token.",
    security: OPERATOR_SECURITY,
    responses: {
      200: { description: "The metrics.", headers: noStore, content: { "text/plain": { schema: { type: "string" as const } } } },
      ...errors({ 401: "Missing or wrong token (`unauthorized`)." }),
    },
  });
}
