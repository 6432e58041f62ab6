import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { config } from "../lib/config";
import { logger } from "../lib/log/logger";
import { acquireDirLock } from "./pglite-lock";
import { makeTreePrivate, secureDataDir } from "./private-dir";
import * as schema from "./schema";
import { processGlobal } from "../lib/util/process-global";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Domain verbs accept either, so a verb can join a transaction its caller already opened. */
export type DbOrTx = Db | Tx;

export const pgliteExtensions = { pg_trgm, unaccent, btree_gin };

type Handle = { db: Db; close: () => Promise<void>; driver: "postgres" | "pglite" };

// One client per process (`processGlobal`), so dev reloads (HMR) and other bundles reuse it instead of opening
// the PGlite folder a second time, which would corrupt it.
const g = processGlobal("database", () => ({ handle: undefined as Promise<Handle> | undefined }));

export function pgliteDir(): string {
  const c = config();
  return c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite");
}

async function open(): Promise<Handle> {
  const c = config();
  if (c.DATABASE_URL) {
    const client = postgresClient(c.DATABASE_URL, c.DATABASE_POOL_SIZE);
    return { db: drizzlePg({ client, schema }) as unknown as Db, close: () => client.end(), driver: "postgres" };
  }
  const dir = pgliteDir();
  if (dir.startsWith("memory://")) {
    const client = await PGlite.create(dir, { extensions: pgliteExtensions });
    return { db: drizzlePglite({ client, schema }) as unknown as Db, close: () => client.close(), driver: "pglite" };
  }
  if (isInside(dir, c.DATA_DIR)) secureDataDir(c.DATA_DIR);
  const release = acquireDirLock(dir);
  // The folder holds secrets and personal data: owner-only before PGlite opens it (repairing a
  // folder an older version left readable), and again after, since initdb unpacks its files 0666.
  makeTreePrivate(dir);
  const client = await PGlite.create(dir, { extensions: pgliteExtensions });
  makeTreePrivate(dir);
  return {
    db: drizzlePglite({ client, schema }) as unknown as Db,
    close: async () => {
      await client.close();
      // PGlite rewrites its relation cache file (`pg_internal.init`) 0644 while it runs.
      makeTreePrivate(dir);
      release();
    },
    driver: "pglite",
  };
}

/**
 * The postgres.js client of the PostgreSQL driver, with statements prepared per connection.
 * drizzle sends every query with `prepare: false`, and postgres.js then describes each statement
 * before it can execute it: two round trips per query (measured 1.9 ms against 0.5 ms per query on
 * this machine). Prepared, a statement is described once per connection and every later run is one
 * round trip that can be pipelined. `plan_cache_mode = force_custom_plan` keeps the planner's
 * choices what they were (a plan per execution, for the values given), so only the round trips
 * change. `DATABASE_PREPARED_STATEMENTS=off` turns it off (PgBouncer in transaction mode).
 */
export function postgresClient(url: string, max: number): postgres.Sql {
  const c = config();
  const prepare = c.DATABASE_PREPARED_STATEMENTS === "on";
  const client = postgres(url, {
    max,
    // A server that never answers (a wrong host behind a firewall that drops packets) fails a
    // query within this many seconds instead of the driver's 30 (and start-up within 15 s).
    connect_timeout: c.DATABASE_CONNECT_TIMEOUT_SECONDS,
    // Warnings a migration raises (a site demoted from a domain another holds) reach our log.
    onnotice: (n) => {
      if (n.severity === "WARNING") logger().warn({ notice: n.message }, "database warning");
    },
    prepare,
    connection: prepare ? { plan_cache_mode: "force_custom_plan" } : {},
  });
  return prepare ? preparing(client) : client;
}

/**
 * A small client for what needs a real session (session advisory locks, LISTEN), on
 * DATABASE_DIRECT_URL when the pool goes through a transaction-mode pooler, else on DATABASE_URL.
 * Never prepared: these connections run a handful of statements. The caller ends it.
 */
export function sessionClient(name: string, max = 1): postgres.Sql {
  const c = config();
  const url = c.DATABASE_DIRECT_URL ?? c.DATABASE_URL;
  if (!url) throw new Error("a session connection needs PostgreSQL: set DATABASE_URL");
  return postgres(url, {
    max,
    connect_timeout: c.DATABASE_CONNECT_TIMEOUT_SECONDS,
    onnotice: (n) => {
      if (n.severity === "WARNING") logger().warn({ notice: n.message }, "database warning");
    },
    connection: { application_name: name },
  });
}

/** Overrides drizzle's per-query `prepare: false` on the client and the clients of its transactions. */
function preparing<S extends postgres.Sql | postgres.TransactionSql>(sql: S): S {
  const s = sql as unknown as Record<string, (...a: unknown[]) => unknown>;
  const unsafe = s.unsafe.bind(sql);
  s.unsafe = (query, params, options) => unsafe(query, params, { ...(options as object | undefined), prepare: true });
  for (const opener of ["begin", "savepoint"] as const) {
    const open = s[opener]?.bind(sql);
    if (!open) continue;
    s[opener] = (...args: unknown[]) => {
      const fn = args.at(-1) as (tx: postgres.TransactionSql) => unknown;
      return open(...args.slice(0, -1), (tx: postgres.TransactionSql) => fn(preparing(tx)));
    };
  }
  return sql;
}

const isInside = (child: string, parent: string) => {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
};

/** The process-wide database, opened on first use (never at import time). */
export async function getDb(): Promise<Db> {
  g.handle ??= open();
  return (await g.handle).db;
}

export async function dbDriver(): Promise<Handle["driver"]> {
  g.handle ??= open();
  return (await g.handle).driver;
}

export async function closeDb(): Promise<void> {
  const h = g.handle;
  g.handle = undefined;
  if (h) await (await h).close();
}

/** Tests give each file its own database. */
export function setDbForTests(db: Db, close: () => Promise<void> = async () => {}, driver: Handle["driver"] = "pglite"): void {
  g.handle = Promise.resolve({ db, close, driver });
}
