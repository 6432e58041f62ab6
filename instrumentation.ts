/** Runs once per server start, before the first request: migrations and the operator token. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` also loads this file; the build must not open (or lock) the database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { boot } = await import("./lib/server/boot");
  await boot();
}
