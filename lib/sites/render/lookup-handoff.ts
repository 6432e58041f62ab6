/**
 * Hands a lookup the proxy already made to the page that renders the same request, so checking a
 * listing before rendering (page-check.ts) costs nothing extra: the proxy stores the promise under
 * a random token it puts in a request header it owns, the page takes it (once) by that token.
 * Same process, same request, microseconds apart; one map per process (`processGlobal`) because
 * the proxy and the pages are separate bundles. Entries a page never took (a redirect, an error)
 * expire. The alternative, a page that looks the listing up again, costs a second query on every
 * listing page; a short-lived shared cache would serve a listing changed in between.
 *
 * The path: proxy.ts → `checkSitePage` (page-check.ts) → `handOver` → header `x-site-lookup` →
 * the listing page (`app/site-render/.../imovel/...`) → `takeOver` with the same key.
 */
import { randomUUID } from "node:crypto";
import { processGlobal } from "../../util/process-global";

type Entry = { at: number; key: string; value: Promise<unknown> };
const TTL_MS = 30_000;
const entries = processGlobal("site-lookups", () => new Map<string, Entry>());

export const LOOKUP_HEADER = "x-site-lookup";

/** Stores `value` for the request's page; `key` names what was looked up (the page checks it). */
export function handOver(key: string, value: Promise<unknown>, now = Date.now()): string {
  // Oldest first (insertion order): drop the expired ones from the front.
  for (const [token, e] of entries) {
    if (now - e.at < TTL_MS) break;
    entries.delete(token);
  }
  const token = randomUUID();
  entries.set(token, { at: now, key, value });
  return token;
}

/** The value handed over under `token` for this `key`, once; null when there is none (or another key's). */
export function takeOver<T>(token: string | null | undefined, key: string, now = Date.now()): Promise<T> | null {
  if (!token) return null;
  const e = entries.get(token);
  if (!e || e.key !== key) return null;
  entries.delete(token);
  return now - e.at < TTL_MS ? (e.value as Promise<T>) : null;
}
