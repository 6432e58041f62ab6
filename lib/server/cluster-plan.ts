/**
 * How `npm start` lays out its processes (pure, so every branch has a unit test): how many web
 * processes share the port, and whether a jobs worker process runs beside them.
 *
 * Node runs JavaScript on one thread, so one web process uses one core however many the machine
 * has. On PostgreSQL `npm start` runs one web process per core (`WEB_CONCURRENCY`), like any
 * multi-process Node deployment; the embedded database admits one process, so there it runs one.
 */
export type JobsMode = "embedded" | "inngest" | "worker" | "off";

export type ClusterPlan = {
  /** Web processes (cluster workers) sharing the port. */
  web: number;
  /** Start one `npm run jobs` worker beside them (and tell the web processes to wake it). */
  jobsWorker: boolean;
  /** JOBS_RUNNER to give the web processes; undefined keeps what the environment says. */
  webJobsRunner?: JobsMode;
};

export type PlanInput = {
  postgres: boolean;
  /** `WEB_CONCURRENCY` as set, or undefined. */
  requested: number | undefined;
  cores: number;
  /** The jobs mode the environment gives (lib/jobs/mode.ts), and whether JOBS_RUNNER says it outright. */
  jobs: JobsMode;
  jobsExplicit: boolean;
};

/** The plan, or a sentence saying what to change when the settings cannot work together. */
export function clusterPlan(i: PlanInput): ClusterPlan | string {
  if (!i.postgres) {
    if (i.requested !== undefined && i.requested > 1) {
      return `WEB_CONCURRENCY=${i.requested} needs PostgreSQL (DATABASE_URL): the embedded database admits one process. Unset WEB_CONCURRENCY, or set DATABASE_URL.`;
    }
    return { web: 1, jobsWorker: false };
  }
  // One per core by default, at most DEFAULT_MAX_WEB: the core count a container sees may be its
  // host's, and each process holds its own connections and in-memory search indexes.
  const web = i.requested ?? Math.min(DEFAULT_MAX_WEB, Math.max(1, i.cores));
  // Several web processes each running every job would race each other for the same rows (safe, as
  // every job claims its work, but wasteful): one jobs worker takes the work, woken by NOTIFY. An
  // explicit JOBS_RUNNER (embedded in each, an external worker, Inngest, off) is kept as given.
  const jobsWorker = web > 1 && i.jobs === "embedded" && !i.jobsExplicit;
  return { web, jobsWorker, webJobsRunner: jobsWorker ? "worker" : undefined };
}

export const DEFAULT_MAX_WEB = 4;

/** The default pool (20 connections) shared out among the web processes, at least 5 each. */
export function webPoolSize(web: number): number {
  return Math.max(5, Math.floor(20 / Math.max(1, web)));
}

/** Restart a process that died after it had started, but not one that keeps dying at once. */
export function shouldRestart(p: { shuttingDown: boolean; wasReady: boolean; recentRestarts: number }): boolean {
  return !p.shuttingDown && p.wasReady && p.recentRestarts < 5;
}

/** The launcher's line once every web process has booted; scripts that start a server wait for it. */
export const READY_LINE = "✓ Serving";
