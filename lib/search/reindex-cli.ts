/**
 * `npm run search:reindex [-- --tenant <slug-or-id>]`: rebuilds the search documents of one tenant
 * or of all, with a progress bar, and pushes them to Typesense when it is configured. Safe while the
 * server runs on PostgreSQL; on the embedded database stop the server first (one process owns the folder).
 */
import { parseArgs } from "node:util";
import { Presets, SingleBar } from "cli-progress";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { settleAfterCommit } from "../../db/transaction";
import { reindexAll } from "./reindex";

async function main() {
  const { values } = parseArgs({ options: { tenant: { type: "string" } } });
  await runMigrations();
  const bar = new SingleBar({ format: "Reindexing |{bar}| {value}/{total} listings | {tenant} | ETA {eta}s" }, Presets.shades_classic);
  const started = Date.now();
  const result = await reindexAll(await getDb(), {
    tenant: values.tenant,
    onProgress: (p) => {
      if (p.kind === "start") bar.start(p.total, 0, { tenant: "" });
      if (p.kind === "batch") bar.update(p.done, { tenant: p.tenant });
      if (p.kind === "pushed") {
        bar.stop();
        console.log(`Pushed ${p.documents} documents of tenant ${p.tenantId} to Typesense.`);
      }
    },
  });
  bar.stop();
  await settleAfterCommit();
  console.log(`Reindexed ${result.listings} listings of ${result.tenants} tenant(s) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  await closeDb();
}

main().catch(async (err) => {
  console.error(`search:reindex failed: ${(err as Error).message}`);
  await closeDb().catch(() => {});
  process.exit(1);
});
