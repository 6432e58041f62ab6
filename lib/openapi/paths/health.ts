import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { LivenessSchema, ReadinessSchema } from "../../health/health-response";

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
}
