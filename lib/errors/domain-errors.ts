/**
 * The few error kinds domain code throws. Only `lib/http` knows how they map to HTTP statuses.
 * `code` is the stable machine-readable value integrators switch on.
 */
export class DomainError extends Error {
  constructor(
    readonly kind:
      | "invalid"
      | "unauthorized"
      | "forbidden"
      | "not_found"
      | "conflict"
      | "gone"
      | "rate_limited"
      | "too_large"
      | "unsupported_media_type"
      | "unavailable",
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string, code = "invalid_request") => new DomainError("invalid", code, message);
export const unauthorized = (message: string, code = "unauthorized") => new DomainError("unauthorized", code, message);
export const forbidden = (message: string, code = "forbidden") => new DomainError("forbidden", code, message);
export const notFound = (message: string, code = "not_found") => new DomainError("not_found", code, message);
export const conflict = (message: string, code = "conflict") => new DomainError("conflict", code, message);
export const unavailable = (message: string, code = "unavailable") => new DomainError("unavailable", code, message);
