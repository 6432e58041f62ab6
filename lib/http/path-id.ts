import { notFound } from "../errors/domain-errors";
import { UUID_PATTERN } from "../schemas/uuid";

/** Ids in paths are UUIDs; anything else cannot name a record, so it is a 404 (not a 500 from SQL). */
export function pathId(value: string, what: string): string {
  if (!UUID_PATTERN.test(value)) throw notFound(`No ${what} with id '${value}': ids are UUIDs.`);
  return value.toLowerCase();
}
