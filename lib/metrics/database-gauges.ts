import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { config } from "../config";
import type { Metrics } from "./registry";

const TOP_TENANTS = 5;

/**
 * Sets the gauges that describe the database's queues, at scrape time. A tenant label appears
 * only for the few tenants whose oldest event waits longest, so the series stay bounded however
 * many tenants there are. postgres.js exposes no pool statistics (busy or idle connections), so
 * the pool is described by its configured size only.
 */
export async function collectDatabaseGauges(db: Db, m: Metrics): Promise<void> {
  const [leads, pending, top] = await Promise.all([
    db.execute<{ status: string; n: number }>(sql`select status::text as status, count(*)::int as n from inbound_leads group by status`),
    db.execute<{ n: number; age: number | null }>(
      sql`select count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age from event_deliveries where state = 'pending'`,
    ),
    db.execute<{ tenant: string; age: number }>(
      sql`select tenant_id::text as tenant, extract(epoch from now() - min(created_at))::float8 as age from event_deliveries
          where state = 'pending' group by tenant_id order by min(created_at) limit ${TOP_TENANTS}`,
    ),
  ]);
  m.leads.reset();
  for (const status of ["received", "processing", "processed", "failed"]) m.leads.set({ status }, 0);
  for (const row of rows<{ status: string; n: number }>(leads)) m.leads.set({ status: row.status }, Number(row.n));
  const p = rows<{ n: number; age: number | null }>(pending)[0];
  m.eventsPending.set(Number(p?.n ?? 0));
  m.eventsOldestAge.set(Math.max(0, Number(p?.age ?? 0)));
  m.eventsOldestAgeTop.reset();
  for (const row of rows<{ tenant: string; age: number }>(top)) m.eventsOldestAgeTop.set({ tenant: row.tenant }, Math.max(0, Number(row.age)));
  m.dbPoolMax.set(config().DATABASE_URL ? config().DATABASE_POOL_SIZE : 1);
}

/** postgres.js answers an array, PGlite `{ rows }`. */
function rows<T>(r: unknown): T[] {
  return (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];
}
