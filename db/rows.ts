/**
 * `db.execute()` answers `{ rows }` on PGlite and an array-like RowList on postgres.js; raw SQL
 * callers read their rows through this so both drivers look the same.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
