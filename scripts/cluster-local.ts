/**
 * `npm run cluster:local`: two nodes behind nginx, on PostgreSQL through PgBouncer in transaction
 * mode, on this one machine (README, "Several nodes"). Ctrl-C stops everything it started.
 *
 * Settings (environment): CLUSTER_DATABASE_URL (PostgreSQL itself; default DATABASE_URL, else
 * postgres://postgres:postgres@localhost:5432/crm_cluster), CLUSTER_PORT (nginx, 8080),
 * CLUSTER_NODE_PORTS (3201,3202), CLUSTER_POOLER_PORT (6432), CLUSTER_DATA_DIR (.cluster-data),
 * and `--demo` to load the demo agency first.
 */
import { spawnSync } from "node:child_process";
import { startCluster } from "./cluster-local/start";

const env = process.env;
const databaseUrl = env.CLUSTER_DATABASE_URL || env.DATABASE_URL || "postgres://postgres:postgres@localhost:5432/crm_cluster";
const port = Number(env.CLUSTER_PORT || 8080);
const nodePorts = (env.CLUSTER_NODE_PORTS || "3201,3202").split(",").map((p) => Number(p.trim()));
const poolerPort = Number(env.CLUSTER_POOLER_PORT || 6432);
const dataDir = env.CLUSTER_DATA_DIR || ".cluster-data";

async function main() {
  if ([port, poolerPort, ...nodePorts].some((p) => !Number.isInteger(p) || p < 1 || p > 65535) || nodePorts.length < 2)
    throw new Error("CLUSTER_PORT, CLUSTER_POOLER_PORT and CLUSTER_NODE_PORTS (two or more, comma-separated) must be port numbers");
  const started = Date.now();
  if (process.argv.includes("--demo")) {
    console.log("== Loading the demo agency (migrations first) on PostgreSQL itself");
    const seed = spawnSync("node_modules/.bin/tsx", ["db/cli/seed.ts"], {
      stdio: "inherit",
      env: { ...env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), SHARE_DOMAIN: env.SHARE_DOMAIN || `share.localhost:${port}` },
    });
    if (seed.status !== 0) throw new Error("the demo seed failed; see above");
  }
  console.log(`== Starting PgBouncer (:${poolerPort}, transaction mode), ${nodePorts.length} nodes (${nodePorts.join(", ")}) and nginx (:${port})`);
  const cluster = await startCluster({
    databaseUrl,
    port,
    nodePorts,
    poolerPort,
    dataDir,
    nodeEnv: { SHARE_DOMAIN: env.SHARE_DOMAIN || `share.localhost:${port}` },
    log: (line) => console.log(line),
  });
  console.log(
    `\n✓ Cluster serving at http://localhost:${port} in ${((Date.now() - started) / 1000).toFixed(1)} s: nginx → ${cluster.nodes
      .map((n) => `${n.name} :${n.port}`)
      .join(", ")} → PgBouncer ${cluster.poolerUrl.replace(/:[^:@/]*@/, ":***@")} → PostgreSQL. Ctrl-C stops it all.`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\n== Stopping nginx, the nodes and PgBouncer");
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  console.error(`\nnpm run cluster:local stopped: ${(err as Error).message}`);
  process.exit(1);
});
