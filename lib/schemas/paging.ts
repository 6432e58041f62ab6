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

/**
 * The zod shape of `Page<T>`: the response schema of a paged list, named `id` in the OpenAPI
 * description, and the return type of the verb that builds it (`z.infer`).
 */
export function pageSchema<T extends z.ZodType>(item: T, id: string, totalDescription?: string) {
  return z
    .object({
      items: z.array(item),
      total: totalDescription ? z.number().int().meta({ description: totalDescription }) : z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
    })
    .meta({ id });
}

const deletedById = new Map<string, ReturnType<typeof deletedOf>>();
const deletedOf = () => z.object({ id: z.uuid(), deleted: z.literal(true) });

/**
 * The answer of a DELETE that removes a record: its id. `id` names the schema in the description;
 * domains that share a name share the one schema object (a name must mean one schema).
 */
export function deletedSchema(id?: string) {
  if (!id) return deletedOf();
  if (!deletedById.has(id)) deletedById.set(id, deletedOf().meta({ id }));
  return deletedById.get(id)!;
}

/** The `{items}` envelope of an unpaged list (`id` names the schema in the description). */
export function itemsSchema<T extends z.ZodType>(item: T, id?: string) {
  const schema = z.object({ items: z.array(item) });
  return id ? schema.meta({ id }) : schema;
}
