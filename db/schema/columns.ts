import { type AnyPgColumn, uuid } from "drizzle-orm/pg-core";

/**
 * A required reference to a parent row that goes with it: `uuid(name).notNull()` with a foreign
 * key `ON DELETE CASCADE`. Most tables hang off a tenant and another parent this way; one helper
 * keeps the 90-odd such columns to one line each (a tenant's deletion removes all it owns).
 */
export function parentRef<TName extends string>(name: TName, parent: () => AnyPgColumn) {
  return uuid(name).notNull().references(parent, { onDelete: "cascade" });
}
