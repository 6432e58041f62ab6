import { otherMethods } from "@/lib/http/method-not-allowed";
import { healthResponse } from "@/lib/health/health-response";

/** Liveness: the process answers. No database, no credentials, no details. */
export function GET(req: Request): Response {
  return healthResponse(req, 200, { status: "ok" });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
