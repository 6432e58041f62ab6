import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ErrorSchema, jsonContent, UNAVAILABLE } from "./common";

/** The sites interface takes no credentials (spec 2 §5.1). */
export const PUBLIC_SECURITY: [] = [];

const PUBLIC_HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "Cache-Control": { description: "`public, max-age=60, stale-while-revalidate=300` (`no-store` on 429 and 5xx).", schema: { type: "string" as const } },
  "Access-Control-Allow-Origin": { description: "`*`", schema: { type: "string" as const } },
  RateLimit: { description: 'Remaining requests and seconds to the window reset, e.g. `"site";r=57;t=42`.', schema: { type: "string" as const } },
};

export const PUBLIC_NOTES =
  "No credentials; any origin (CORS `*`, `OPTIONS` answered 204). Answers carry `Cache-Control: public, max-age=60, " +
  "stale-while-revalidate=300` and the `RateLimit-Policy` / `RateLimit` headers of the endpoint's group. `locale` and `lang` " +
  "query parameters are accepted and ignored (text is never rewritten by language: read `title_en`, `title_es`...); any other unknown parameter is a 400.";

export function publicOk(description: string, schema: z.ZodType): ResponseConfig {
  return { description, headers: PUBLIC_HEADERS, content: jsonContent(schema) };
}

/** The 400 of a public operation whose only input is its path: any query parameter but `locale` and `lang`. */
export const UNKNOWN_PARAMETER = "An unknown query parameter (`invalid_request`).";

/** Error answers of a public operation, plus the 429, 500 and 503 every one of them can give. */
export function publicErrors(described: Partial<Record<400 | 403 | 404 | 409, string>>, perMinute: number): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  for (const [status, description] of Object.entries(described)) out[status] = { description, headers: PUBLIC_HEADERS, content: jsonContent(ErrorSchema) };
  out["429"] = {
    description: `More than ${perMinute} requests per minute from this client address (\`rate_limited\`); \`Retry-After\` says when to retry.`,
    headers: PUBLIC_HEADERS,
    content: jsonContent(ErrorSchema),
  };
  out["500"] = { description: "Unexpected failure (`internal_error`).", headers: PUBLIC_HEADERS, content: jsonContent(ErrorSchema) };
  out["503"] = { description: UNAVAILABLE, headers: PUBLIC_HEADERS, content: jsonContent(ErrorSchema) };
  return out;
}

export const siteIdParam = z.object({ siteId: z.string().meta({ description: "Site id (UUID); anything else answers 404 `Site not found`." }) });
