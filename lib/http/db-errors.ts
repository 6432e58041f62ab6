import { conflict } from "../errors/domain-errors";

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
  return err;
}

function findPgError(err: unknown): PgError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof (e as PgError).code === "string" && /^[0-9A-Z]{5}$/.test((e as PgError).code!)) return e as PgError;
  }
  return undefined;
}
