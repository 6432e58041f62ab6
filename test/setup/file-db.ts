import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { closeDb, pgliteExtensions, postgresClient, setDbForTests, type Db } from "../../db/client";
import * as schema from "../../db/schema";
import { TEMPLATE_DB } from "./global-db";

/** Every test file gets a fresh migrated database of its own. */
beforeAll(async () => {
  const tpl = inject("dbTemplate");
  if (tpl.kind === "pglite") {
    const pg = await PGlite.create({
      loadDataDir: new Blob([fs.readFileSync(tpl.file)]),
      extensions: pgliteExtensions,
    });
    setDbForTests(drizzlePglite({ client: pg, schema }) as unknown as Db, () => pg.close(), "pglite");
    return;
  }
  const name = `crm_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  await admin.end();
  const url = new URL(tpl.url);
  url.pathname = `/${name}`;
  const client = postgresClient(url.toString(), 5);
  setDbForTests(
    drizzlePg({ client, schema }) as unknown as Db,
    async () => {
      await client.end();
      const drop = postgres(tpl.url, { max: 1, onnotice: () => {} });
      await drop.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
    "postgres",
  );
});

afterAll(async () => {
  await closeDb();
});
