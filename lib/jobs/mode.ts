import { config } from "../config";

/**
 * Who runs background work: Inngest when a server or key is configured, otherwise the embedded
 * runner in this process. `JOBS_RUNNER` overrides: `worker` leaves the work to a separate
 * `npm run jobs` process (PostgreSQL only), `off` to nobody (tests drive the work directly).
 */
export function jobsMode(): "embedded" | "inngest" | "worker" | "off" {
  const explicit = config().JOBS_RUNNER;
  if (explicit) return explicit;
  const e = process.env;
  return e.INNGEST_EVENT_KEY || e.INNGEST_SIGNING_KEY || e.INNGEST_BASE_URL || e.INNGEST_DEV ? "inngest" : "embedded";
}

/** Why this process cannot run in the mode it was given, or undefined: a worker must share the database. */
export function jobsModeProblem(mode: ReturnType<typeof jobsMode>, driver: "postgres" | "pglite"): string | undefined {
  if (mode === "worker" && driver !== "postgres") {
    return "JOBS_RUNNER=worker needs PostgreSQL (DATABASE_URL): the embedded database admits one process, so the jobs worker could not reach it. Unset JOBS_RUNNER to run the jobs in this server.";
  }
  return undefined;
}
