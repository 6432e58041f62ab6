/**
 * `npm run jobs`: runs the background jobs in their own process, beside web servers started with
 * `JOBS_RUNNER=worker` (PostgreSQL only). Ctrl-C or SIGTERM lets the current runs finish.
 */
export {};

process.env.NEXT_MANUAL_SIG_HANDLE ??= "true";
// Events the jobs send themselves (a processed lead queues outbound events) stay in this process.
process.env.JOBS_RUNNER = "embedded";

const { config } = await import("../config");
const { gracefulShutdown } = await import("./shutdown");
const { startJobsWorker } = await import("./jobs-worker");

// Installed first: a signal while the worker starts stops it once it has started, never mid-claim.
let stopping = false;
let started: Promise<{ stop: () => Promise<void> } | undefined> = Promise.resolve(undefined);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void started.then((worker) => gracefulShutdown(signal, { timeoutMs: config().SHUTDOWN_TIMEOUT_MS, stopRunner: worker?.stop ?? (async () => {}) }));
  });
}
started = startJobsWorker().then(
  (worker) => {
    // Started by `npm start`'s launcher: tell it, and stop if the launcher goes away.
    if (process.send) {
      process.send({ crmJobsWorker: "started" });
      process.once("disconnect", () => process.emit("SIGTERM"));
    }
    return worker;
  },
  (err: Error) => {
    console.error(`Jobs worker not started: ${err.message}`);
    process.exit(1);
  },
);
