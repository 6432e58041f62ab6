/**
 * Migration 0035 (issue #32, D1): existing site domains are normalized, and where two sites now
 * spell one name the oldest keeps it while the others are unpublished, marked `taken`, and logged
 * (a WARNING from the database, which the server's log repeats). Run on an empty database
 * migrated to 0034, then to the end, on the engine of the run (PGlite, or PostgreSQL in CI).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import { migrate as migratePg } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { pgliteExtensions } from "../../../db/client";
import { migrationsFolder } from "../../../db/migrate";

/** A copy of the migrations folder that stops before `tag` (its journal trimmed to match). */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-mig-"));
  fs.mkdirSync(path.join(dir, "meta"));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"));
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === tag);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  for (const e of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify(journal));
  return dir;
}

type Engine = {
  run: (q: string) => Promise<Record<string, unknown>[]>;
  migrate: (folder: string) => Promise<void>;
  warnings: string[];
  close: () => Promise<void>;
};

async function emptyDatabase(): Promise<Engine> {
  const tpl = inject("dbTemplate");
  const warnings: string[] = [];
  if (tpl.kind === "pglite") {
    const pg = await PGlite.create("memory://", { extensions: pgliteExtensions });
    const db = drizzlePglite({ client: pg });
    return {
      run: async (q) => (await pg.query<Record<string, unknown>>(q)).rows,
      migrate: (f) => migratePglite(db, { migrationsFolder: f }),
      warnings,
      close: () => pg.close(),
    };
  }
  const name = `crm_mig_${randomBytes(5).toString("hex")}`;
  const admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(tpl.url);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: (n) => n.severity === "WARNING" && warnings.push(n.message) });
  return {
    run: (q) => client.unsafe(q) as unknown as Promise<Record<string, unknown>[]>,
    migrate: (f) => migratePg(drizzlePg({ client }), { migrationsFolder: f }),
    warnings,
    close: async () => {
      await client.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe("migration 0035: one name per host", () => {
  it("normalizes stored domains; the oldest of a clash keeps the name, the others are unpublished, taken and logged", async () => {
    const db = await emptyDatabase();
    try {
      await db.migrate(migrationsBefore("0035_site_domain_claims"));
      const [a] = await db.run(`insert into tenants (slug, name, settings) values ('alfa', 'Alfa', '{}') returning id`);
      const [b] = await db.run(`insert into tenants (slug, name, settings) values ('beta', 'Beta', '{}') returning id`);
      const site = async (tenant: unknown, domain: string, age: number) =>
        (
          await db.run(`insert into sites (tenant_id, name, domain, published, configuration, listing_criteria, created_at)
           values ('${tenant}', '${domain}', '${domain}', true, '{}', '{}', now() - interval '${age} days') returning id`)
        )[0].id as string;
      // What the old rules let through: one host written three ways (port, case and trailing dot), by two tenants.
      const oldest = await site(a.id, "alfa.localhost", 30);
      const withPort = await site(b.id, "alfa.localhost:3000", 20);
      const withPortAndDot = await site(b.id, "ALFA.localhost.", 10);
      const alone = await site(b.id, "beta.example.com:443", 5);

      await db.migrate(migrationsFolder);
      const rows = await db.run(`select id, domain, domain_status, published, domain_token from sites order by created_at`);
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      expect(byId[oldest]).toMatchObject({ domain: "alfa.localhost", domain_status: "active", published: true });
      expect(byId[withPort]).toMatchObject({ domain: "alfa.localhost", domain_status: "taken", published: false });
      expect(byId[withPortAndDot]).toMatchObject({ domain: "alfa.localhost", domain_status: "taken", published: false });
      expect(byId[alone]).toMatchObject({ domain: "beta.example.com", domain_status: "active", published: true });
      // A custom domain held from before can be proven from now on; local names need no proof.
      expect(byId[alone].domain_token).toMatch(/^imobicrm-verify=[0-9a-f]{32}$/);
      expect(byId[oldest].domain_token).toBeNull();
      if (inject("dbTemplate").kind === "postgres") {
        expect(db.warnings).toHaveLength(2);
        expect(db.warnings.join("\n")).toContain(`held by the older site ${oldest}`);
      }
      // From now on the database itself keeps one holder per name.
      await expect(db.run(`update sites set domain_status = 'active' where id = '${withPort}'`)).rejects.toThrow(/sites_domain_held_key|duplicate key/);
    } finally {
      await db.close();
    }
  });
});
