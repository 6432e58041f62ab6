import { z } from "zod";
import { assertStorable } from "./read-json";

/**
 * Turns the query string into an object for a zod schema: a key sent once is a string, a
 * repeated key an array. Schemas are strict, so an unknown or misspelled parameter is a 400
 * instead of being silently ignored.
 */
export function parseQuery<S extends z.ZodType>(url: string | URL, schema: S): z.output<S> {
  const params = new URL(url).searchParams;
  const obj: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    obj[key] = all.length === 1 ? all[0] : all;
  }
  assertStorable(obj, []);
  return schema.parse(obj);
}

/** A positive integer sent as query text. */
export const queryInt = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

export const PageQuery = {
  page: queryInt("page", 1, 1_000_000).default(1),
  pageSize: queryInt("pageSize", 1, 100).default(50),
};

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };
