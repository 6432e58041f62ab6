/**
 * The data of the site benchmarks (bench:sites, bench:site-pages): a tenant with generated listings,
 * all of them indexed for search, and a published site on a domain.
 */
import { Presets, SingleBar } from "cli-progress";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { inTransaction } from "../../db/transaction";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { reindexListings } from "../../lib/search/index-listings";
import { createSite } from "../../lib/sites/sites";
import { createTenant } from "../../lib/admin/create-tenant";
import { scratchDatabase } from "./http-load";
import { generateListingsSql } from "./search-data";

export type BenchSite = { tenant: string; email: string; site: string; domain: string; listings: number };

async function load(db: Db, o: BenchSite): Promise<{ siteId: string }> {
  const t = await createTenant({ db }, { name: o.tenant, owner: { name: "O", email: o.email } });
  console.log(`Generating ${o.listings} listings...`);
  await db.execute(generateListingsSql(t.tenantId, t.owner.userId, o.listings));
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${t.tenantId}::uuid order by id`)).map((r) => r.id);
  const bar = new SingleBar({ format: "Indexing |{bar}| {value}/{total} documents | ETA {eta}s" }, Presets.shades_classic);
  bar.start(ids.length, 0);
  for (let i = 0; i < ids.length; i += 1000) {
    await inTransaction(db, (tx) => reindexListings(tx, t.tenantId, ids.slice(i, i + 1000)));
    bar.update(Math.min(i + 1000, ids.length));
  }
  bar.stop();
  await db.execute(sql`vacuum analyze`);
  const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const site = await createSite(ctx, { name: o.site, domain: o.domain, published: true });
  return { siteId: site.id };
}

/** The site on `o.domain`: with `reuse` the one an earlier run loaded (BENCH_REUSE), else loaded now. */
async function benchSite(db: Db, o: BenchSite, reuse: boolean): Promise<{ siteId: string }> {
  const started = performance.now();
  const existing = reuse ? rowsOf<{ id: string }>(await db.execute(sql`select id from sites where domain = ${o.domain}`))[0] : undefined;
  if (existing) return { siteId: existing.id };
  const loaded = await load(db, o);
  console.log(`Loaded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  return loaded;
}

/**
 * The benchmark's database `dbName` on DATABASE_URL's server (dropped and created, or kept with
 * `reuse`), migrated, with its site; answers its URL for the server under test.
 */
export async function prepareSiteBench(dbName: string, o: BenchSite, reuse: boolean): Promise<{ dbUrl: string; db: Db; siteId: string }> {
  const dbUrl = await scratchDatabase(dbName, reuse);
  await runMigrations();
  const db = await getDb();
  const { siteId } = await benchSite(db, o, reuse);
  return { dbUrl, db, siteId };
}
