import { openApiJsonResponse } from "@/lib/openapi/docs-responses";

/** The OpenAPI 3.1 description of the REST API, generated from the zod schemas. */
export function GET(_req: Request): Response {
  return openApiJsonResponse();
}
