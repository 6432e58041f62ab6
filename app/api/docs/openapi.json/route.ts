import { openApiJsonResponse } from "@/lib/openapi/docs-responses";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** The OpenAPI 3.1 description of the REST API, generated from the zod schemas. */
export function GET(_req: Request): Response {
  return openApiJsonResponse();
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
