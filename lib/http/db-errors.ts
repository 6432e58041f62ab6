import { conflict, invalid } from "../errors/domain-errors";

type PgError = { code?: string; constraint_name?: string; constraint?: string; detail?: string };

/**
 * Last line of defence for races the domain checks cannot close (two requests taking the same
 * listing code at once): a unique violation becomes a 409 instead of a 500.
 */
export function translateDbError(err: unknown): unknown {
  const pg = findPgError(err);
  if (pg?.code === "23505") {
    const name = pg.constraint_name ?? pg.constraint ?? "unique key";
    return conflict(`A record with the same value already exists (${name}); retry with another value.`);
  }
  // Safety nets: input checks should catch these first and name the field.
  if (pg?.code === "22021" || pg?.code === "22P05") return invalid("A text value contains characters that cannot be stored (such as NUL).");
  if (pg?.code === "22003") return invalid("A number is out of the range this field can store.");
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
