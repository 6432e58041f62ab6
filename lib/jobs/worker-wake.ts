import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { logger } from "../log/logger";

/** The PostgreSQL channel on which web processes wake the jobs worker (`JOBS_RUNNER=worker`). */
export const WAKE_CHANNEL = "crm_jobs";

/** NOTIFY payloads are capped at 8,000 bytes; a bigger event wakes the job without its data (a sweep). */
const MAX_PAYLOAD = 7_900;

export type Wake = { name: string; data?: unknown };

/** Per event name: a NOTIFY is on its way, and whether more work came while it was. */
const inFlight = new Map<string, { again: boolean }>();
/** A NOTIFY that has not gone out by then (a connection hanging) no longer holds back the next ones. */
const NOTIFY_SLOT_MS = 5_000;

/**
 * Tells the jobs worker that work is waiting. Best effort, like every job event: the work is
 * already committed, and the worker's schedule (and its sweep on every reconnect) picks it up if
 * the notification is lost. One NOTIFY per event name is on its way at a time: events that come
 * while it is make one more after it, without data, which the worker runs as a sweep of what is
 * pending (every job claims its work, so a sweep covers each of them). A burst of 600 leads a
 * second then sends a few dozen NOTIFYs instead of 600.
 */
export function wakeWorker(name: string, data: unknown): void {
  const pending = inFlight.get(name);
  if (pending) {
    pending.again = true;
    return;
  }
  let payload = JSON.stringify({ name, data } satisfies Wake);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ name } satisfies Wake);
  const state = { again: false };
  inFlight.set(name, state);
  const release = () => {
    clearTimeout(timer);
    if (inFlight.get(name) !== state) return;
    inFlight.delete(name);
    if (state.again) wakeWorker(name, undefined);
  };
  const timer = setTimeout(release, NOTIFY_SLOT_MS).unref();
  void getDb()
    .then((db) => db.execute(sql`select pg_notify(${WAKE_CHANNEL}, ${payload})`))
    .catch((err) => logger().warn({ err, event: name }, "could not wake the jobs worker; its schedule will run the work"))
    .finally(release);
}
