import { healthResponse } from "@/lib/health/health-response";
import { readiness } from "@/lib/health/readiness";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** Readiness: 200 when the server can take traffic, 503 with `Retry-After` when it cannot. */
export async function GET(req: Request): Promise<Response> {
  const r = await readiness(req.headers);
  return r.ready
    ? healthResponse(req, 200, { status: "ready", checks: r.checks })
    : healthResponse(req, 503, { status: "not_ready", checks: r.checks }, { "retry-after": "5" });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
