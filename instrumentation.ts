/**
 * Runs once per server start, before the first request: database check, migrations, the operator
 * token, the job runner. Under our own server (lib/server/web-server-cli.ts) the boot has already run
 * (the same promise, kept per process); this is what `next dev` and a bare `next start` rely on.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` also loads this file; the build must not open (or lock) the database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { bootOrExit } = await import("./lib/server/boot");
  await bootOrExit();
  // Share link previews (issue #16): the image renderer's first use costs ~0.6 s; pay it now, in the background.
  void import("./app/share-render/_share/og-image").then((m) => m.warmOgRenderer()).catch(() => {});
  const { jobsMode } = await import("./lib/jobs/mode");
  if (jobsMode() === "inngest") {
    // `lib/` never imports `inngest/`: the transport that sends job events to Inngest is plugged in here.
    const { installInngestTransport } = await import("./inngest/transport");
    installInngestTransport();
  }
}

/**
 * Next.js reports every error of a render or route here. A page that failed because the database
 * went away makes the next pages answer the 503 "back soon" page at once (proxy.ts), instead of
 * waiting for the next liveness ping.
 */
export async function onRequestError(err: unknown) {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ isConnectionError }, { noteDatabaseFailure }] = await Promise.all([import("./lib/http/db-errors"), import("./lib/health/database-liveness")]);
  if (isConnectionError(err)) noteDatabaseFailure();
}
