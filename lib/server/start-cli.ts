/**
 * `npm start`: serves the production build with one web process per core on PostgreSQL (one on
 * the embedded database), as a Node cluster sharing the port, plus a jobs worker beside them when
 * the jobs would otherwise run in every web process (lib/server/cluster-plan.ts). Arguments go to
 * each web process (`npm start -- -p 3100`; lib/server/web-server-cli.ts).
 *
 * The first web process boots as a single server would (database check, migrations, operator
 * token) and starts serving; the others start once it serves, so migrations never run twice at once. A process that
 * dies after it started is restarted; one that fails to start stops everything with its exit code
 * (a wrong DATABASE_URL is one line, not a restart loop). SIGTERM or Ctrl-C stops them all
 * gracefully: each finishes its in-flight requests and running job (lib/server/shutdown.ts).
 */
import cluster, { type Worker } from "node:cluster";
import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import { config } from "../config";
import { jobsMode } from "../jobs/mode";
import { logger } from "../log/logger";
import { clusterPlan, READY_LINE, shouldRestart, webPoolSize, type ClusterPlan } from "./cluster-plan";

const c = (() => {
  try {
    return config();
  } catch (err) {
    console.error(`Server not started: ${(err as Error).message}`);
    process.exit(1);
  }
})();
const plan: ClusterPlan = (() => {
  const p = clusterPlan({
    postgres: Boolean(c.DATABASE_URL),
    requested: c.WEB_CONCURRENCY,
    cores: os.availableParallelism(),
    jobs: jobsMode(),
    jobsExplicit: Boolean(c.JOBS_RUNNER),
  });
  if (typeof p !== "string") return p;
  console.error(`Server not started: ${p}`);
  process.exit(1);
})();

const log = logger().child({ component: "launcher" });
const baseEnv: Record<string, string> = {
  NEXT_MANUAL_SIG_HANDLE: "true",
  ...(plan.webJobsRunner ? { JOBS_RUNNER: plan.webJobsRunner } : {}),
  // The pool size is per process: unless it is set, the default's connections are shared out.
  ...(process.env.DATABASE_POOL_SIZE ? {} : { DATABASE_POOL_SIZE: String(webPoolSize(plan.web)) }),
};
// Web processes run our server (lib/server/web-server-cli.ts) with this launcher's TypeScript
// loader. Rendering a page makes much short-lived garbage: a 64 MB young generation (V8's default
// is 16) collects it less often and promotes less of it (listing pages 141-148 -> 156-168 a second
// in the site-pages bench; docs/decisions.md). NODE_OPTIONS can still set it otherwise.
const semiSpace = /--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? "") ? [] : ["--max-semi-space-size=64"];
cluster.setupPrimary({
  exec: createRequire(import.meta.url).resolve("./web-server-cli.ts"),
  args: process.argv.slice(2),
  execArgv: [...process.execArgv, ...semiSpace],
});

let shuttingDown = false;
let restStarted = false;
let announced = false;
const restarts: number[] = [];
/** Web processes alive (forked, not yet exited), and those that have booted. */
const live = new Set<Worker>();
const booted = new Set<Worker>();
let jobs: ChildProcess | undefined;

function forkWeb(env: Record<string, string>): void {
  if (shuttingDown) return;
  const w = cluster.fork({ ...baseEnv, ...env });
  live.add(w);
  // Booted: listening, database checked and migrated, job runner chosen (lib/server/boot.ts).
  w.on("message", (m: unknown) => {
    if (!m || typeof m !== "object" || !("crmBooted" in m) || booted.has(w) || shuttingDown) return;
    booted.add(w);
    if (!restStarted) startRest();
    if (!announced && booted.size === plan.web) {
      announced = true;
      // Printed like Next.js's own "Ready" line, whatever LOG_LEVEL: scripts wait for it (test/bench/http-load.ts).
      console.log(
        `${READY_LINE}: ${plan.web} web process${plan.web > 1 ? "es share" : " on"} the port${plan.jobsWorker ? "; a jobs worker runs the background work" : ""}`,
      );
    }
  });
  w.on("exit", (code, signal) => {
    live.delete(w);
    const wasReady = booted.delete(w);
    if (shuttingDown) return maybeExit();
    if (shouldRestart({ shuttingDown, wasReady, recentRestarts: recent() })) {
      log.error({ pid: w.process.pid, code, signal }, "a web process died: starting another");
      restarts.push(Date.now());
      forkWeb({ MIGRATE_ON_START: "false" });
      return;
    }
    // It printed why (Server not started: ...); the launcher only stops the rest.
    stopAll(code || 1, wasReady ? "web processes keep dying" : undefined);
  });
}

/** Once the first web process has booted (and migrated): the other web processes and the jobs worker. */
function startRest() {
  restStarted = true;
  for (let i = 1; i < plan.web; i++) forkWeb({ MIGRATE_ON_START: "false" });
  if (plan.jobsWorker) startJobsWorker();
}

function startJobsWorker() {
  if (shuttingDown) return;
  let started = false;
  const child = fork(createRequire(import.meta.url).resolve("./jobs-worker-cli.ts"), [], { execArgv: process.execArgv });
  // It says so over IPC once it listens for wake-ups (lib/server/jobs-worker-cli.ts), whatever LOG_LEVEL.
  child.on("message", (m: unknown) => {
    if (m && typeof m === "object" && "crmJobsWorker" in m) started = true;
  });
  child.on("exit", (code, signal) => {
    if (jobs === child) jobs = undefined;
    if (shuttingDown) return maybeExit();
    if (shouldRestart({ shuttingDown, wasReady: started, recentRestarts: recent() })) {
      log.error({ code, signal }, "the jobs worker died: starting it again");
      restarts.push(Date.now());
      startJobsWorker();
    } else stopAll(code || 1, `the jobs worker stopped (${signal ?? `exit code ${code}`})${started ? " again and again" : " before it started"}`);
  });
  jobs = child;
}

const recent = () => restarts.filter((t) => Date.now() - t < 60_000).length;

function stopAll(code: number, why?: string) {
  if (why) log.error(`stopping: ${why}`);
  if (!process.exitCode) process.exitCode = code;
  shutdown("SIGTERM");
}

function shutdown(signal: NodeJS.Signals) {
  if (!shuttingDown) {
    shuttingDown = true;
    // Past each process's own bound (SHUTDOWN_TIMEOUT_MS), whatever is left is killed.
    setTimeout(() => {
      for (const w of live) w.process.kill("SIGKILL");
      jobs?.kill("SIGKILL");
    }, c.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
  }
  // Ctrl-C reaches every process of the terminal already; an orchestrator's SIGTERM reaches only
  // this one. Each process ignores a repeated signal, so passing it on is always safe.
  for (const w of live) w.process.kill(signal);
  jobs?.kill(signal);
  maybeExit();
}

function maybeExit() {
  if (live.size === 0 && !jobs) process.exit();
}

process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
forkWeb({});
