import { requestIdFrom } from "../http/request-id";

/**
 * Health answers skip the request log and the error wrapper of API routes on purpose: probes
 * come every few seconds (they would drown the log), and liveness must answer even while the
 * server drains, when API routes answer 503.
 */
export function healthResponse(req: Request, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", "x-request-id": requestIdFrom(req.headers), ...headers } });
}
