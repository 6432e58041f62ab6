import { docsResponse } from "@/lib/openapi/docs-responses";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** Swagger UI over `/api/docs/openapi.json`, served entirely from this service (JSON when asked for). */
export function GET(req: Request): Response {
  return docsResponse(req);
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
