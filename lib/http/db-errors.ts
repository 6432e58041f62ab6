import { conflict, invalid, unavailable } from "../errors/domain-errors";

type PgError = { code?: string; constraint_name?: string; constraint?: string; detail?: string };

/** How long clients should wait before retrying while the database is unreachable. */
export const DB_RETRY_AFTER_SECONDS = 5;

/**
 * Connection failures (postgres.js and Node socket codes, and the server's own "shutting down" /
 * "cannot connect now" states): the database went away, not the request's fault. The pool reconnects
 * by itself on the next query once the server is back.
 */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/**
 * Last line of defence for races the domain checks cannot close (two requests taking the same
 * listing code at once): a unique violation becomes a 409 instead of a 500.
 */
export function translateDbError(err: unknown): unknown {
  if (isConnectionError(err)) {
    return unavailable(`The database is unreachable right now; retry in ${DB_RETRY_AFTER_SECONDS} seconds.`);
  }
  const pg = findPgError(err);
  if (pg?.code === "23505") {
    const name = pg.constraint_name ?? pg.constraint ?? "unique key";
    if (name === "tasks_booked_slot_key") return conflict("dueAt: the broker already has a visit booked at this time; choose another.", "slot_taken");
    if (name === "sites_domain_held_key") return conflict("domain: another site holds this domain; choose another domain.", "domain_taken");
    return conflict(`A record with the same value already exists (${name}); retry with another value.`);
  }
  // Safety nets: input checks should catch these first and name the field.
  if (pg?.code === "22021" || pg?.code === "22P05") return invalid("A text value contains characters that cannot be stored (such as NUL).");
  if (pg?.code === "22003") return invalid("A number is out of the range this field can store.");
  if (pg?.code === "22P02") return invalid("A value is not in the form this field stores (such as text that is not valid JSON or an id that is not a UUID).");
  if (pg?.code === "40P01" || pg?.code === "40001") {
    return conflict("The request collided with a concurrent change to the same records; retry it.");
  }
  return err;
}

function findPgError(err: unknown): PgError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof (e as PgError).code === "string" && /^[0-9A-Z]{5}$/.test((e as PgError).code!)) return e as PgError;
  }
  return undefined;
}

export function isConnectionError(err: unknown): boolean {
  for (let e = err as { cause?: unknown; code?: unknown; errors?: unknown[] } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true;
    // Node's AggregateError (IPv4 and IPv6 both refused) carries the codes in `errors`.
    if (Array.isArray(e.errors) && e.errors.some((x) => isConnectionError(x))) return true;
  }
  return false;
}
