import { sql } from "drizzle-orm";
import { dbDriver, getDb } from "../../db/client";
import { isConnectionError } from "../http/db-errors";
import { processGlobal } from "../util/process-global";

/** How long one answer (yes or no) is trusted: at most this stale, and at most one ping a period per process. */
const FRESH_MS = 1_000;
/** A page waits at most this long for the ping; a slower answer renders the page. */
const PING_TIMEOUT_MS = 1_500;

type State = { ok: boolean; at: number; pending?: Promise<boolean> };
// One per process: the proxy reads it, and a page's failure (instrumentation) writes it.
const state = processGlobal<State>("database-liveness", () => ({ ok: true, at: 0 }));

/**
 * Whether PostgreSQL answers, for pages that must say "back soon" (503) rather than fail with a
 * 500 when it does not (issue #32, D5). API routes learn it from the failing query itself; a
 * rendered page can fail deep inside a component, after Next.js has chosen its status, so the
 * proxy asks first. Pinged at most once a second per process (a `select 1` a second, against
 * ~150 pages a second); concurrent callers share one ping. The embedded database is always there.
 */
export async function databaseReachable(): Promise<boolean> {
  if ((await dbDriver()) === "pglite") return true;
  const now = Date.now();
  if (now - state.at < FRESH_MS) return state.ok;
  state.pending ??= ping().then((ok) => {
    state.ok = ok;
    state.at = Date.now();
    state.pending = undefined;
    return ok;
  });
  return state.pending;
}

/**
 * Only a connection error means "down". A slow answer (a busy pool under load) is no proof of
 * anything: the page renders, and if its own query then fails on the connection, `onRequestError`
 * marks the database down for the next pages.
 */
async function ping(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), PING_TIMEOUT_MS)));
    return await Promise.race([(await getDb()).execute(sql`select 1`).then(() => true), timeout]);
  } catch (err) {
    return !isConnectionError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** Something else saw the database fail (a page's query): the next caller pings again. */
export function noteDatabaseFailure(): void {
  state.ok = false;
  state.at = Date.now();
}
