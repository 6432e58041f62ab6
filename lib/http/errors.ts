import { ZodError, type core } from "zod";
import { DomainError } from "../errors/domain-errors";

const STATUS: Record<DomainError["kind"], number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

export type ErrorBody = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

/** `listings.0.price` style path, so the message names the field an integrator sent. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".") || "(body)";
}

export function zodIssues(err: ZodError): { path: string; message: string }[] {
  return err.issues.map((i: core.$ZodIssue) => ({ path: issuePath(i.path), message: i.message }));
}

/** Maps a thrown value to a status and body, or null for an unexpected error (a 500). */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } | null {
  if (err instanceof ZodError) {
    const issues = zodIssues(err);
    const message = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
    return { status: 400, body: { error: { code: "invalid_request", message, issues } } };
  }
  if (err instanceof DomainError) {
    return { status: STATUS[err.kind], body: { error: { code: err.code, message: err.message } } };
  }
  return null;
}
