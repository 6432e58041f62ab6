import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import { migrate as migratePg } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { pgliteExtensions } from "../../db/client";
import { migrationsFolder } from "../../db/migrate";

/** `TEST_DB_TEMPLATE` lets two checkouts run the PostgreSQL suite on one server at the same time. */
export const TEMPLATE_DB = process.env.TEST_DB_TEMPLATE ?? "crm_test_template";

/**
 * Migrates once per run. PGlite: a migrated in-memory database is dumped to a file each test
 * file loads (~0.5 s instead of ~3 s to create and migrate). PostgreSQL: a migrated template
 * database each test file copies with CREATE DATABASE ... TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    console.log(`[test-db] PostgreSQL at ${new URL(url).host}: migrating template database ${TEMPLATE_DB}`);
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    const tplUrl = new URL(url);
    tplUrl.pathname = `/${TEMPLATE_DB}`;
    const tpl = postgres(tplUrl.toString(), { max: 1, onnotice: () => {} });
    await migratePg(drizzlePg({ client: tpl }), { migrationsFolder });
    await tpl.end();
    project.provide("dbTemplate", { kind: "postgres", url });
    return;
  }
  const pg = await PGlite.create("memory://", { extensions: pgliteExtensions });
  await migratePglite(drizzlePglite({ client: pg }), { migrationsFolder });
  const dump = await pg.dumpDataDir("none");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "crm-test-")), "migrated.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide("dbTemplate", { kind: "pglite", file });
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { kind: "pglite"; file: string } | { kind: "postgres"; url: string };
  }
}
