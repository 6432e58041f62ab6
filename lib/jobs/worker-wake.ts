import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { logger } from "../log/logger";

/** The PostgreSQL channel on which web processes wake the jobs worker (`JOBS_RUNNER=worker`). */
export const WAKE_CHANNEL = "crm_jobs";

/** NOTIFY payloads are capped at 8,000 bytes; a bigger event wakes the job without its data (a sweep). */
const MAX_PAYLOAD = 7_900;

export type Wake = { name: string; data?: unknown };

/**
 * Tells the jobs worker that work is waiting. Best effort, like every job event: the work is
 * already committed, and the worker's schedule (and its sweep on every reconnect) picks it up if
 * the notification is lost.
 */
export function wakeWorker(name: string, data: unknown): void {
  let payload = JSON.stringify({ name, data } satisfies Wake);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ name } satisfies Wake);
  void getDb()
    .then((db) => db.execute(sql`select pg_notify(${WAKE_CHANNEL}, ${payload})`))
    .catch((err) => logger().warn({ err, event: name }, "could not wake the jobs worker; its schedule will run the work"));
}
