import path from "node:path";
import { migrate as migratePg } from "drizzle-orm/postgres-js/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { dbDriver, getDb, type Db } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** Applies pending migrations; safe to call on every start. */
export async function runMigrations(db?: Db, driver?: "postgres" | "pglite"): Promise<void> {
  const target = db ?? (await getDb());
  const kind = driver ?? (await dbDriver());
  if (kind === "pglite") await migratePglite(target as unknown as PgliteDatabase, { migrationsFolder });
  else await migratePg(target as unknown as PostgresJsDatabase, { migrationsFolder });
}
