/**
 * `db.execute()` answers `{ rows }` on PGlite and an array-like RowList on postgres.js; raw SQL
 * callers read their rows through this so both drivers look the same.
 */
/** A json/jsonb column read by raw SQL: postgres.js hands it over as text, PGlite as a value. */
export function jsonColumn<T = unknown>(v: unknown): T {
  return (typeof v === "string" ? JSON.parse(v) : v) as T;
}

export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
