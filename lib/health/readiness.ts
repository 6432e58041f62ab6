import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { migrationsFolder } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { embeddedRunnerRunning } from "../jobs/embedded-runner";
import { jobsMode } from "../jobs/mode";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { isDraining } from "../server/lifecycle";
import type { ReadinessSchema } from "./health-response";

export type CheckState = "ok" | "failing";
export type Readiness = { ready: boolean; checks: z.infer<typeof ReadinessSchema>["checks"] };

/** A health probe must answer fast even when the database hangs. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * What an orchestrator needs before it sends traffic: the database answers a query, every
 * migration of this build is applied, the job runner of this process is alive (when background
 * work runs here), the server is not shutting down, and requests reach the routes with their
 * client's address. Each check says only ok or failing: no
 * versions, hosts or error texts, which would help an attacker more than an operator (the
 * server log has the cause).
 */
export async function readiness(headers: Headers): Promise<Readiness> {
  const [database, migrations] = await Promise.all([check(databaseAnswers), check(migrationsApplied)]);
  const checks = {
    database,
    migrations,
    jobs: jobsAlive() ? ("ok" as const) : ("failing" as const),
    accepting: isDraining() ? ("failing" as const) : ("ok" as const),
    // The server stamps every request with its connection's address (lib/server/web-server.ts);
    // without it every visitor would share one rate-limit bucket. The server checks this at start.
    clientAddress: headers.has(CLIENT_ADDRESS_HEADER) ? ("ok" as const) : ("failing" as const),
  };
  return { ready: Object.values(checks).every((c) => c === "ok"), checks };
}

async function check(probe: () => Promise<boolean>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([probe(), timeout])) ? "ok" : "failing";
  } catch {
    return "failing";
  } finally {
    clearTimeout(timer);
  }
}

async function databaseAnswers(): Promise<boolean> {
  const db = await getDb();
  const rows = rowsOf<{ one: number }>(await db.execute(sql`select 1 as one`));
  return Number(rows[0]?.one) === 1;
}

/** Migrations never un-apply, so once the newest one is seen the answer is kept. */
let migrationsSeen = false;

async function migrationsApplied(): Promise<boolean> {
  if (migrationsSeen) return true;
  const newest = newestMigrationMillis();
  const db = await getDb();
  const rows = rowsOf<{ at: string | number | null }>(await db.execute(sql`select max(created_at) as at from drizzle.__drizzle_migrations`));
  migrationsSeen = Number(rows[0]?.at ?? 0) >= newest;
  return migrationsSeen;
}

/** The `when` of the last entry of drizzle-kit's journal, which the migrator stores as `created_at`. */
function newestMigrationMillis(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}

/** In-process runner mode needs the runner started; with Inngest (or jobs off) nothing runs here. */
function jobsAlive(): boolean {
  return jobsMode() !== "embedded" || embeddedRunnerRunning();
}

export function resetReadinessForTests(): void {
  migrationsSeen = false;
}
