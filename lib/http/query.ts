import { attachPrereadBody, prereadBody } from "./preread-body";
import type { z } from "zod";
import { InputError } from "./errors";
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
  assertStorable(obj, [], "query");
  const parsed = schema.safeParse(obj);
  if (!parsed.success) throw new InputError("query", parsed.error);
  return parsed.data;
}

/**
 * The request without the named query parameters (compared case-insensitively), or itself when it
 * has none of them, so the handler parses, logs and answers as if they were never sent.
 */
export function withoutQueryParams(req: Request, names: readonly string[]): Request {
  const url = new URL(req.url);
  const drop = [...url.searchParams.keys()].filter((k) => names.includes(k.toLowerCase()));
  if (!drop.length) return req;
  for (const k of drop) url.searchParams.delete(k);
  const hasBody = req.body !== null && req.method !== "GET" && req.method !== "HEAD";
  const copy = new Request(url, {
    method: req.method,
    headers: req.headers,
    signal: req.signal,
    ...(hasBody ? { body: req.body, duplex: "half" } : {}),
  } as RequestInit);
  const preread = prereadBody(req);
  return preread ? attachPrereadBody(copy, preread) : copy;
}
