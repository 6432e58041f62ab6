/** `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded PGlite folder. */
import { closeDb, dbDriver, pgliteDir } from "../client";
import { runMigrations } from "../migrate";
import { describeTarget, fail } from "../seed/cli-support";

try {
  const started = Date.now();
  await runMigrations();
  console.log(`Migrations applied to ${describeTarget(await dbDriver(), pgliteDir())} in ${Date.now() - started} ms.`);
  await closeDb();
  process.exit(0);
} catch (err) {
  await fail("Migration failed", err);
}
