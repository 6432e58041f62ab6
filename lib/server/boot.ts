import { dbDriver, getDb } from "../../db/client";
import { runMigrations, schemaAheadProblem } from "../../db/migrate";
import { ensureOperatorToken } from "../auth/operator-token";
import { config } from "../config";
import { startEmbeddedRunner } from "../jobs/embedded-runner";
import { jobsMode, jobsModeProblem } from "../jobs/mode";
import { logger } from "../log/logger";
import { checkRateLimitStore } from "../rate-limit/self-check";
import { checkDatabase } from "./database-check";
import { installShutdownHandlers } from "./shutdown";
import { processGlobal } from "../util/process-global";

const JOBS_WHERE = {
  inngest: "background work runs in Inngest functions (/api/inngest)",
  worker: "background work runs in the jobs worker (npm run jobs), woken through PostgreSQL NOTIFY",
  off: "background work is off",
} as const;

const slot = processGlobal("boot", () => ({ booted: undefined as Promise<void> | undefined }));

/** Idempotent: dev reloads and repeated `register()` calls boot once per process. */
export function boot(): Promise<void> {
  slot.booted ??= doBoot();
  return slot.booted;
}

async function doBoot(): Promise<void> {
  const log = logger();
  const c = config();
  // Before the database is opened: a refused mode must not leave the embedded one open or migrated.
  const problem = jobsModeProblem(jobsMode(), c.DATABASE_URL ? "postgres" : "pglite");
  if (problem) throw new Error(problem);
  const token = ensureOperatorToken();
  if (token.created) {
    // Printed once, on the start that generated it; afterwards it is only in the file.
    log.info({ file: token.file }, `Operator token created: ${token.token} (kept in ${token.file}; set OPERATOR_TOKEN to choose your own)`);
  }
  await checkDatabase();
  if (c.MIGRATE_ON_START) {
    const started = Date.now();
    await runMigrations();
    log.info({ driver: await dbDriver(), ms: Date.now() - started }, "database migrated");
  } else {
    // Not migrating here (another node or `npm run db:migrate` does): still refuse a schema this code does not know.
    const ahead = await schemaAheadProblem();
    if (ahead) throw new Error(ahead);
  }
  // After migrations (they create the table): limits must hold across processes, or not start.
  await checkRateLimitStore(await getDb());
  installShutdownHandlers(c.SHUTDOWN_TIMEOUT_MS);
  const mode = jobsMode();
  if (mode === "embedded") startEmbeddedRunner();
  else log.info({ mode }, JOBS_WHERE[mode]);
}

/** What `instrumentation.ts` calls: a server that cannot boot (no database) stops with one clear line instead of answering 500s. */
export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (err) {
    console.error(`Server not started: ${(err as Error).message}`);
    process.exit(1);
  }
}
