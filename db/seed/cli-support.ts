/** Shared by the `db/cli` scripts. */
import { closeDb } from "../client";
import { config } from "../../lib/config";

/** Where the CLI wrote, without the password of a DATABASE_URL. */
export function describeTarget(driver: "postgres" | "pglite", pgliteDir: string): string {
  if (driver === "pglite") return `the embedded database (${pgliteDir})`;
  const url = new URL(config().DATABASE_URL!);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/** Prints a one-line reason (the lock message says which process holds the folder) and exits 1. */
export async function fail(what: string, err: unknown): Promise<never> {
  const message = err instanceof Error ? err.message : String(err);
  // drizzle wraps driver errors ("Failed query: ..."); the cause says what PostgreSQL objected to.
  const cause = err instanceof Error && err.cause instanceof Error ? `\n  cause: ${err.cause.message}` : "";
  console.error(`${what}: ${message}${cause}`);
  if (process.env.DEBUG && err instanceof Error && err.stack) console.error(err.stack);
  await closeDb().catch(() => {});
  process.exit(1);
}
