/**
 * `npm run search:reindex [-- --tenant <slug-or-id>]`: rebuilds the search documents of one tenant
 * or of all, with a progress bar. Safe while the server runs on PostgreSQL; on the embedded
 * database stop the server first (one process owns the folder).
 */
import { parseArgs } from "node:util";
import { SingleBar, Presets } from "cli-progress";
import { count, eq, or, sql } from "drizzle-orm";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { listings, tenants } from "../../db/schema";
import { rowsOf } from "../../db/rows";
import { reindexListings } from "./index-listings";
import { searchEngine } from "./search-engine";
import { INDEX_ROW_COLUMNS, toIndexed } from "./typesense-sync";

async function main() {
  const { values } = parseArgs({ options: { tenant: { type: "string" } } });
  await runMigrations();
  const db = await getDb();
  const where = values.tenant
    ? or(eq(tenants.slug, values.tenant), sql`${tenants.id}::text = ${values.tenant}`)
    : undefined;
  const targets = await db.select({ id: tenants.id, slug: tenants.slug }).from(tenants).where(where);
  if (values.tenant && !targets.length) throw new Error(`No tenant with slug or id '${values.tenant}'.`);
  const [{ n }] = await db
    .select({ n: count() })
    .from(listings)
    .where(values.tenant ? eq(listings.tenantId, targets[0].id) : undefined);
  const bar = new SingleBar({ format: "Reindexing |{bar}| {value}/{total} listings | {tenant} | ETA {eta}s" }, Presets.shades_classic);
  bar.start(Number(n), 0, { tenant: "" });
  const started = Date.now();
  let done = 0;
  for (const t of targets) {
    const ids = (await db.select({ id: listings.id }).from(listings).where(eq(listings.tenantId, t.id))).map((r) => r.id);
    // Batches in their own transactions: short, so a running server is never held up for long.
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      await db.transaction((tx) => reindexListings(tx, t.id, batch));
      done += batch.length;
      bar.update(done, { tenant: t.slug });
    }
  }
  bar.stop();
  await pushAllToTypesense(db, targets.map((t) => t.id));
  console.log(`Reindexed ${done} listings of ${targets.length} tenant(s) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  await closeDb();
}

/** With Typesense configured, the rebuilt documents are pushed there too (collection created if missing). */
async function pushAllToTypesense(db: Awaited<ReturnType<typeof getDb>>, tenantIds: string[]) {
  const engine = await searchEngine();
  if (engine.name !== "typesense") return;
  const ts = engine as unknown as { ensureCollection(): Promise<unknown>; upsertDocuments(d: unknown[]): Promise<unknown> };
  await ts.ensureCollection();
  for (const tenantId of tenantIds) {
    const rows = rowsOf<Parameters<typeof toIndexed>[1][number]>(
      await db.execute(sql`select ${INDEX_ROW_COLUMNS} from search_index where tenant_id = ${tenantId}::uuid`),
    );
    for (let i = 0; i < rows.length; i += 500) await ts.upsertDocuments(toIndexed(tenantId, rows.slice(i, i + 500)));
    console.log(`Pushed ${rows.length} documents of tenant ${tenantId} to Typesense.`);
  }
}

main().catch(async (err) => {
  console.error(`search:reindex failed: ${(err as Error).message}`);
  await closeDb().catch(() => {});
  process.exit(1);
});
