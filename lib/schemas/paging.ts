import { z } from "zod";

/** A positive integer sent as query text. */
export const queryInt = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

/** `page` and `pageSize` of list endpoints (spec 1: pageSize at most 100). */
export const PageQuery = {
  page: queryInt("page", 1, 1_000_000).default(1),
  pageSize: queryInt("pageSize", 1, 100).default(50),
};

/** The list envelope of every paged endpoint. */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };
