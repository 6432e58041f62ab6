import { docsResponse } from "@/lib/openapi/docs-responses";

/** Swagger UI over `/api/docs/openapi.json`, served entirely from this service (JSON when asked for). */
export function GET(req: Request): Response {
  return docsResponse(req);
}
