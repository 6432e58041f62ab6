import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { ZodError } from "zod";
import { DomainError } from "../errors/domain-errors";
import { translateDbError } from "../http/db-errors";
import { InputError, zodIssues } from "../http/errors";

/** What a tool answers: the structured result (the same envelopes and acks as REST) and one line for a model to read. */
export type ToolOutcome = { ok: boolean; data: Record<string, unknown>; summary: string };

export const done = (data: Record<string, unknown>, summary: string): ToolOutcome => ({ ok: true, data, summary });

/** A refusal: an ack with `status` and `reason` (a gate's code), answered as a tool error so an agent does not mistake it for success. */
export const refused = (data: Record<string, unknown>, summary: string): ToolOutcome => ({ ok: false, data, summary });

export function toToolResult(o: ToolOutcome): CallToolResult {
  return { content: [{ type: "text", text: o.summary }], structuredContent: o.data, ...(o.ok ? {} : { isError: true }) };
}

/**
 * Errors thrown by a verb become tool errors with the REST error body (`{error: {code, message}}`),
 * never a protocol error: the SDK would otherwise put any exception's message (a database error's
 * text included) into the result. Unknown errors are logged and answered with the request id only.
 */
export function errorResult(raw: unknown, log: Logger, requestId: string): CallToolResult {
  const err = translateDbError(raw);
  let body: { error: { code: string; message: string; issues?: unknown } };
  if (err instanceof DomainError) body = { error: { code: err.code, message: err.message } };
  else if (err instanceof ZodError || err instanceof InputError) {
    const issues = zodIssues(err instanceof InputError ? err.zod : err, "body");
    body = { error: { code: "invalid_request", message: issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues } };
  } else {
    log.error({ err }, "tool failed");
    body = { error: { code: "internal_error", message: `Internal error; quote request id ${requestId} when reporting it.` } };
  }
  return { content: [{ type: "text", text: `${body.error.code}: ${body.error.message}` }], structuredContent: body, isError: true };
}
