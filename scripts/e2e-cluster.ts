/**
 * `npm run test:e2e:cluster`: the Playwright suite through nginx to two nodes on PostgreSQL through
 * PgBouncer (the layout of `npm run cluster:local`), on a fresh database dropped afterwards.
 * Needs the production build, PostgreSQL (CLUSTER_DATABASE_URL's server, default
 * postgres://postgres:postgres@localhost:5432) and Debian's nginx and pgbouncer.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { e2eServerEnv } from "../e2e/constants";
import { startCluster } from "./cluster-local/start";

const server = new URL(process.env.CLUSTER_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres:postgres@localhost:5432/postgres");
// Not `npm run test:e2e`'s 3100, so both can run at once. The Playwright run is given this port as
// E2E_PORT, so its fake tile and SMTP servers listen where the nodes' settings point.
const port = Number(process.env.E2E_PORT || 3190);

async function main(): Promise<number> {
  const name = `crm_e2e_cluster_${randomBytes(4).toString("hex")}`;
  const db = new URL(server);
  db.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-e2e-cluster-"));
  console.log(`== Starting the cluster (nginx :${port}, two nodes, PgBouncer) on a new database ${name}`);
  const cluster = await startCluster({
    databaseUrl: db.toString(),
    port,
    nodePorts: [port + 1, port + 2],
    poolerPort: port + 3,
    dataDir,
    // As playwright.config.ts gives its own server.
    nodeEnv: e2eServerEnv(port),
  });
  try {
    console.log(`== Playwright through ${cluster.url}`);
    const run = spawnSync("node_modules/.bin/playwright", ["test", ...process.argv.slice(2)], {
      stdio: "inherit",
      env: { ...process.env, E2E_EXTERNAL: "1", E2E_PORT: String(port) },
    });
    return run.status ?? 1;
  } finally {
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const admin = postgres(server.toString(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`npm run test:e2e:cluster stopped: ${(err as Error).message}`);
    process.exit(1);
  },
);
