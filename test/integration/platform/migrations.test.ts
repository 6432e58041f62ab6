/**
 * Migrations under several nodes: two nodes starting together on a fresh PostgreSQL database both
 * succeed and apply each migration once (the advisory lock), and a node whose code is older than
 * the database's schema refuses to start with one line naming both versions. PostgreSQL parts run
 * with DATABASE_URL (`npm run test:pg`, CI); the embedded database parts always run.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { pgliteExtensions, type Db } from "../../../db/client";
import { runMigrations, schemaAheadProblem } from "../../../db/migrate";

const root = path.resolve(import.meta.dirname, "../../..");
const journal = JSON.parse(fs.readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8")) as { entries: { when: number; tag: string }[] };
const lastTag = journal.entries.at(-1)!.tag;
const future = journal.entries.at(-1)!.when + 86_400_000;
const tpl = inject("dbTemplate");

describe("migrations on the embedded database", () => {
  it("applies every migration once, is a no-op when repeated, and refuses a database ahead of the code", async () => {
    const pg = await PGlite.create("memory://", { extensions: pgliteExtensions });
    const db = drizzlePglite({ client: pg }) as unknown as Db;
    try {
      await runMigrations(db, "pglite");
      await runMigrations(db, "pglite");
      const applied = await pg.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0].n).toBe(journal.entries.length);
      expect((await pg.query("select to_regclass('public.inbound_leads') as t")).rows[0]).toEqual({ t: "inbound_leads" });
      expect(await schemaAheadProblem(db, "pglite")).toBeUndefined();

      await pg.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', $1)", [future]);
      const problem = await schemaAheadProblem(db, "pglite");
      expect(problem).toMatch(
        new RegExp(
          `^Database schema is newer than this code: the database has ${journal.entries.length + 1} migrations applied .*this code knows ${journal.entries.length} \\(up to ${lastTag}`,
        ),
      );
      expect(problem).not.toContain("\n");
      await expect(runMigrations(db, "pglite")).rejects.toThrow(problem!);
    } finally {
      await pg.close();
    }
  }, 60_000);
});

describe.skipIf(tpl.kind !== "postgres")("migrations on PostgreSQL with several nodes", () => {
  it("two nodes migrating a fresh database at once both succeed, each migration applied once; an older node is refused at boot", async () => {
    if (tpl.kind !== "postgres") return;
    const name = `crm_migr_${randomBytes(5).toString("hex")}`;
    const admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(tpl.url);
    url.pathname = `/${name}`;
    // Two pools, as two nodes have.
    const a = postgres(url.toString(), { max: 2, onnotice: () => {} });
    const b = postgres(url.toString(), { max: 2, onnotice: () => {} });
    try {
      await Promise.all([
        runMigrations(drizzlePg({ client: a }) as unknown as Db, "postgres"),
        runMigrations(drizzlePg({ client: b }) as unknown as Db, "postgres"),
      ]);
      const rows = await a<{ created_at: string }[]>`select created_at::text from drizzle.__drizzle_migrations order by id`;
      expect(rows.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));
      // The lock is released: nobody holds it once both are done.
      expect(
        (
          await a`select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`
        )[0].n,
      ).toBe(0);

      await a`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${future})`;
      await expect(runMigrations(drizzlePg({ client: b }) as unknown as Db, "postgres")).rejects.toThrow(/^Database schema is newer than this code/);
      for (const migrate of ["true", "false"]) {
        const run = spawnSync(process.execPath, ["--import", "tsx", "test/fixtures/boot-probe.mts"], {
          cwd: root,
          encoding: "utf8",
          timeout: 30_000,
          env: { ...process.env, NEXT_RUNTIME: "nodejs", DATABASE_URL: url.toString(), LOG_LEVEL: "silent", MIGRATE_ON_START: migrate, DATA_DIR: "" },
        });
        expect(run.status).toBe(1);
        expect(run.stdout).not.toContain("started");
        const lines = run.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^Server not started: Database schema is newer than this code: the database has ${journal.entries.length + 1} migrations applied .*this code knows ${journal.entries.length} \\(up to ${lastTag}`,
          ),
        );
      }
    } finally {
      await Promise.all([a.end(), b.end()]);
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 90_000);
});
