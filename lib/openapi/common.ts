import type { OpenAPIRegistry, ResponseConfig, ZodContentObject } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { ErrorBody } from "../http/errors";

/** The one error body every route returns (`lib/http/errors.ts`); `satisfies` keeps the two in step. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({
        description:
          "Stable machine-readable code: `invalid_request`, `invalid_json`, `unauthorized`, `forbidden`, `not_found`, " +
          "`conflict`, `payload_too_large`, `internal_error`.",
        example: "invalid_request",
      }),
      message: z.string().meta({
        description: "Human-readable explanation naming the offending field.",
        example: "query parameter `pageSize`: Too big: expected number to be <=100",
      }),
      issues: z
        .array(
          z.object({
            location: z.enum(["query", "body", "path", "header"]).meta({ description: "The part of the request the value was in." }),
            path: z.string().meta({ example: "listings.0.price" }),
            message: z.string(),
          }),
        )
        .optional()
        .meta({ description: "Present on schema validation failures (400 `invalid_request`): one entry per offending field." }),
    }),
  })
  .meta({ id: "Error" }) satisfies z.ZodType<ErrorBody>;

export const API_KEY_SECURITY = [{ apiKey: [] }];
export const OPERATOR_SECURITY = [{ operatorToken: [] }];

/** Every response carries the request id (kept from `X-Request-Id` when the caller sends a sane one). */
const REQUEST_ID_HEADER = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };

export function jsonContent(schema: z.ZodType): ZodContentObject {
  return { "application/json": { schema } };
}

export function ok(description: string, schema: z.ZodType): ResponseConfig {
  return { description, headers: REQUEST_ID_HEADER, content: jsonContent(schema) };
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 503;

export const UNAUTHORIZED_KEY =
  "Missing API key, malformed `Authorization` header, or a key that is unknown, revoked, or whose member is inactive (`unauthorized`).";

export const ADMIN_ONLY = "Needs a broad API key of an `owner` or `admin` member; any other key is a 403.";

export const NOT_ADMIN = "The key is not a broad key of an owner or admin member (`forbidden`): tenant settings, members and API keys need one.";

export const TOO_LARGE = "Body larger than 1,000,000 bytes (`payload_too_large`).";

/**
 * Every route runs through one wrapper (`lib/http/run.ts`), which answers 503 while the server
 * drains on shutdown and when the database cannot be reached.
 */
export const UNAVAILABLE = "The server is shutting down or cannot reach its database (`unavailable`); retry after `Retry-After` seconds.";

/** The 503 of an operation: its own condition, if it has one, then the one every route shares. */
export const unavailable = (own?: string) => (own ? `${own} ${UNAVAILABLE}` : UNAVAILABLE);

/**
 * The error responses of one operation, each with the condition that triggers it there, plus
 * the 500 and 503 every route can answer.
 */
export function errors(described: Partial<Record<ErrorStatus, string>>): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  for (const [status, description] of Object.entries(described)) {
    out[status] = { description, headers: REQUEST_ID_HEADER, content: jsonContent(ErrorSchema) };
  }
  out["500"] = {
    description: "Unexpected failure (`internal_error`); the message quotes the request id to report. Details are logged, never returned.",
    headers: REQUEST_ID_HEADER,
    content: jsonContent(ErrorSchema),
  };
  out["503"] = { description: unavailable(described[503]), headers: REQUEST_ID_HEADER, content: jsonContent(ErrorSchema) };
  return out;
}

export const UNSUPPORTED_MEDIA_TYPE = "A body whose `Content-Type` is not `application/json` (or a `+json` type) (`unsupported_media_type`).";

/**
 * Every JSON body is read by `readJson` (`lib/http/read-json.ts`), which answers 415 to any other
 * Content-Type, so every operation with a JSON request body documents that 415 here, in one place
 * like the code. Not the channel, provider and gateway webhooks, which read their raw bytes (a
 * body that is not JSON is their 400), nor `/api/mcp`, whose SDK transport checks its own headers.
 */
export function documentJsonBodyRefusals(r: OpenAPIRegistry): void {
  for (const d of r.definitions) {
    if (d.type !== "route") continue;
    const { path, request, responses } = d.route;
    if (!request?.body?.content["application/json"] || path.startsWith("/api/webhooks/") || path === "/api/mcp" || responses["415"]) continue;
    responses["415"] = { description: UNSUPPORTED_MEDIA_TYPE, headers: REQUEST_ID_HEADER, content: jsonContent(ErrorSchema) };
  }
}

/** Path ids are UUIDs; anything else cannot name a record and answers 404 (not 400). */
export const uuidParam = (name: string, what: string) =>
  z.object({ [name]: z.uuid().meta({ description: `Id of the ${what} (UUID; any other text is a 404).` }) });
