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
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** Where in the request a bad value was: every validation message names it. */
export type InputLocation = "query" | "body" | "path" | "header";

export type Issue = { location: InputLocation; path: string; message: string };
export type ErrorBody = { error: { code: string; message: string; issues?: Issue[] } };

/**
 * A validation error of a part of the request other than the body (a bare ZodError is the body's,
 * since verbs validate the bodies they are given): `parseQuery` wraps its errors in this.
 */
export class InputError extends Error {
  constructor(
    readonly location: InputLocation,
    readonly zod: ZodError,
  ) {
    super(zod.message);
  }
}

/** `listings.0.price` style path, so the message names the field an integrator sent. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".") || "(body)";
}

const WHAT: Record<InputLocation, string> = { query: "query parameter", body: "body field", path: "path segment", header: "header" };

/** `body field \`listings.0.price\``, `query parameter \`page\``, or just `body` for the whole body. */
export function fieldLabel(location: InputLocation, path: readonly PropertyKey[]): string {
  return path.length ? `${WHAT[location]} \`${path.map(String).join(".")}\`` : location;
}

/** zod's wording, made to say what to do: a missing value "is required", an unknown key is named. */
function explain(issue: core.$ZodIssue): string {
  if (issue.code === "invalid_type" && / received undefined$/.test(issue.message)) return "is required";
  return issue.message;
}

export function zodIssues(err: ZodError, location: InputLocation = "body"): Issue[] {
  return err.issues.flatMap((i: core.$ZodIssue): Issue[] => {
    if (i.code === "unrecognized_keys") {
      const what = location === "query" ? "parameter" : "field";
      return i.keys.map((key) => ({
        location,
        path: issuePath([...i.path, key]),
        message: `${fieldLabel(location, [...i.path, key])}: is not a known ${what}; remove it or check its spelling (the accepted ones are in /api/docs)`,
      }));
    }
    return [{ location, path: issuePath(i.path), message: `${fieldLabel(location, i.path)}: ${explain(i)}` }];
  });
}

function validationError(err: ZodError, location: InputLocation): { status: number; body: ErrorBody } {
  const issues = zodIssues(err, location);
  return { status: 400, body: { error: { code: "invalid_request", message: issues.map((i) => i.message).join("; "), issues } } };
}

/** Maps a thrown value to a status and body, or null for an unexpected error (a 500). */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } | null {
  if (err instanceof ZodError) return validationError(err, "body");
  if (err instanceof InputError) return validationError(err.zod, err.location);
  if (err instanceof DomainError) {
    return { status: STATUS[err.kind], body: { error: { code: err.code, message: err.message } } };
  }
  return null;
}
