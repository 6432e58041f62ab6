import type { DbOrTx } from "./client";

/**
 * drizzle builds a statement's SQL text (and its result mapping) from the query builder at every
 * run: 50–140 µs of CPU for a select of a whole row with a join, on paths that run it for every
 * chat (issue 34: "Agent CPU a step"). A drizzle prepared query (`.prepare(name)`, values as
 * `sql.placeholder(...)`) keeps both, built once. It runs on the client it was built on, so it is
 * kept per database object: one built on the pool runs on the pool, one built on a transaction
 * only in that transaction (and goes with it). Server-side preparation still follows the client's
 * setting: with `DATABASE_PREPARED_STATEMENTS=off` (PgBouncer) postgres.js prepares nothing.
 */
const built = new WeakMap<object, Map<string, unknown>>();

export function preparedOn<P>(db: DbOrTx, name: string, make: (db: DbOrTx, name: string) => P): P {
  let mine = built.get(db);
  if (!mine) built.set(db, (mine = new Map()));
  let p = mine.get(name) as P | undefined;
  if (p === undefined) mine.set(name, (p = make(db, name)));
  return p;
}
