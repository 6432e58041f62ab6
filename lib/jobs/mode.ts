import { config } from "../config";

/**
 * Who runs background work: Inngest when a server or key is configured, otherwise the embedded
 * runner in this process. `JOBS_RUNNER` overrides (tests use `off` and drive the work directly).
 */
export function jobsMode(): "embedded" | "inngest" | "off" {
  const explicit = config().JOBS_RUNNER;
  if (explicit) return explicit;
  const e = process.env;
  return e.INNGEST_EVENT_KEY || e.INNGEST_SIGNING_KEY || e.INNGEST_BASE_URL || e.INNGEST_DEV ? "inngest" : "embedded";
}
