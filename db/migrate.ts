import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import type postgres from "postgres";
import { config } from "../lib/config";
import { dbDriver, getDb, sessionClient, type Db } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * The key of the session advisory lock every node takes around its migrations (any fixed bigint;
 * this one spells "crm-migr" in ASCII), so nodes started together migrate one after the other and
 * the later ones find nothing left to do.
 */
export const MIGRATION_LOCK_KEY = 0x63726d2d6d696772n;

/** A statement runner on ONE connection: the lock, the check and the migration share its session. */
type Run = (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Applies pending migrations; safe to call on every start, by several nodes at once. On PostgreSQL
 * everything runs on one reserved connection holding `pg_advisory_lock` (a session lock: it needs a
 * real session: with DATABASE_DIRECT_URL set, behind a transaction-mode pooler, they run on a
 * connection of their own to PostgreSQL itself). PGlite is one process and needs no lock. Refuses (throws, changing nothing) when the
 * database holds migrations this code does not know: such a node would fail queries instead.
 */
export async function runMigrations(db?: Db, driver?: "postgres" | "pglite"): Promise<void> {
  const target = db ?? (await getDb());
  const kind = driver ?? (await dbDriver());
  const migrations = readMigrationFiles({ migrationsFolder });
  if (kind === "pglite") {
    const client = (target as unknown as { $client: PGlite }).$client;
    await migrateOn(pgliteRun(client), migrations);
    return;
  }
  // The lock needs a session: through PgBouncer in transaction mode it would be taken on one server
  // connection and released (or not) on another.
  const direct = !db && config().DATABASE_DIRECT_URL ? sessionClient("crm-migrations") : undefined;
  const client = direct ?? (target as unknown as { $client: postgres.Sql }).$client;
  const conn = await client.reserve();
  const run: Run = (q, p) => conn.unsafe(q, (p ?? []) as postgres.ParameterOrJSON<never>[]) as unknown as Promise<Record<string, unknown>[]>;
  try {
    await run("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrateOn(run, migrations);
    } finally {
      await run("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    conn.release();
    await direct?.end({ timeout: 5 });
  }
}

/**
 * What drizzle's migrator does (a migration is pending when its folder time is later than the last
 * applied one's; all pending ones in one transaction), on the given connection, after the check.
 */
async function migrateOn(run: Run, migrations: MigrationMeta[]): Promise<void> {
  await run("CREATE SCHEMA IF NOT EXISTS drizzle");
  await run("CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)");
  const problem = await schemaAheadProblemOn(run, migrations);
  if (problem) throw new Error(problem);
  const [last] = await run("select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1");
  const lastMillis = last ? Number(last.created_at) : undefined;
  const pending = migrations.filter((m) => lastMillis === undefined || lastMillis < m.folderMillis);
  if (pending.length === 0) return;
  await run("begin");
  try {
    for (const m of pending) {
      for (const stmt of m.sql) if (stmt.trim()) await run(stmt);
      await run(`insert into drizzle.__drizzle_migrations ("hash", "created_at") values ($1, $2)`, [m.hash, m.folderMillis]);
    }
    await run("commit");
  } catch (err) {
    await run("rollback").catch(() => {});
    throw err;
  }
}

type JournalEntry = { idx: number; when: number; tag: string };

function journal(): JournalEntry[] {
  // Read at call time: the journal is what this code knows.
  const file = path.join(migrationsFolder, "meta", "_journal.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

async function schemaAheadProblemOn(run: Run, migrations: MigrationMeta[]): Promise<string | undefined> {
  const [table] = await run("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
  if (!table?.present) return undefined;
  const [applied] = await run("select count(*)::int as n, max(created_at)::text as latest from drizzle.__drizzle_migrations");
  const latest = applied?.latest == null ? undefined : Number(applied.latest);
  const known = migrations.at(-1)?.folderMillis ?? 0;
  if (latest === undefined || latest <= known) return undefined;
  const entries = journal();
  const codeTag = entries.at(-1)?.tag ?? "none";
  return (
    `Database schema is newer than this code: the database has ${applied.n} migrations applied (latest dated ${new Date(latest).toISOString()}), ` +
    `this code knows ${entries.length} (up to ${codeTag}, dated ${new Date(known).toISOString()}). Start this node with the newer release; it would fail queries on this schema.`
  );
}

/** The refusal line when the database is ahead of this code, for starts that do not migrate (MIGRATE_ON_START=false, the jobs worker). */
export async function schemaAheadProblem(db?: Db, driver?: "postgres" | "pglite"): Promise<string | undefined> {
  const target = db ?? (await getDb());
  const kind = driver ?? (await dbDriver());
  const migrations = readMigrationFiles({ migrationsFolder });
  if (kind === "pglite") {
    const client = (target as unknown as { $client: PGlite }).$client;
    return schemaAheadProblemOn(pgliteRun(client), migrations);
  }
  const client = (target as unknown as { $client: postgres.Sql }).$client;
  return schemaAheadProblemOn(
    (q, p) => client.unsafe(q, (p ?? []) as postgres.ParameterOrJSON<never>[]) as unknown as Promise<Record<string, unknown>[]>,
    migrations,
  );
}

/** A migration statement may hold several statements: those (no parameters) go through `exec`. */
function pgliteRun(client: PGlite): Run {
  return async (q, p) =>
    p?.length ? (await client.query<Record<string, unknown>>(q, p)).rows : (((await client.exec(q)).at(-1)?.rows ?? []) as Record<string, unknown>[]);
}
