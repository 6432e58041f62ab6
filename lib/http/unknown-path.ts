import { requestIdFrom } from "./request-id";

/**
 * The answer for a path under `/api` that no route serves, whatever the method: the usual JSON
 * error instead of Next's HTML 404 page, which an API client cannot parse.
 */
export function unknownApiPath(req: Request): Response {
  // The path is echoed inside a JSON string (so it cannot inject anything), cut to a sane length.
  const path = new URL(req.url).pathname.slice(0, 200);
  return Response.json(
    { error: { code: "not_found", message: `No API endpoint at ${path}. The API reference is at /api/docs.` } },
    { status: 404, headers: { "Cache-Control": "no-store", "x-request-id": requestIdFrom(req.headers) } },
  );
}
