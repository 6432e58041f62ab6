import { notFound } from "../errors/domain-errors";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are UUIDs; anything else cannot name a record, so it is a 404 (not a 500 from SQL). */
export function pathId(value: string, what: string): string {
  if (!UUID_PATTERN.test(value)) throw notFound(`No ${what} with id '${value}': ids are UUIDs.`);
  return value.toLowerCase();
}
