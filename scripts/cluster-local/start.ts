/**
 * Brings up the several-node layout on this one machine: PostgreSQL (already running) ← PgBouncer
 * in transaction mode ← two independent nodes (`npm start` each: own port, own web process and
 * jobs runner) ← nginx balancing round-robin. Used by `npm run cluster:local` and by the test that
 * runs the suites' HTTP checks through it (test/integration/platform/cluster-local.test.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { READY_LINE } from "../../lib/server/cluster-plan";
import { nginxConf, pgbouncerIni, pgbouncerUsers } from "./configs";

export type ClusterOptions = {
  /** PostgreSQL itself, with the database the nodes use (created when missing). */
  databaseUrl: string;
  /** nginx's port: the address users and tests talk to. */
  port: number;
  nodePorts: number[];
  poolerPort: number;
  /** Environment given to every node on top of the cluster's own (OPERATOR_TOKEN, LOG_LEVEL…). */
  nodeEnv?: Record<string, string>;
  /** One shared data folder (operator token, demo credentials, photographs), as a shared volume would be. */
  dataDir: string;
  log?: (line: string) => void;
};

export type ClusterNode = { name: string; port: number; output: () => string; kill: (signal: NodeJS.Signals) => void; exited: () => boolean };

export type Cluster = { url: string; nodes: ClusterNode[]; poolerUrl: string; stop: () => Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where Debian installs the two programs, or a sentence saying how to get them. */
export function missingPrograms(): string | null {
  const missing = ["nginx", "pgbouncer"].filter((p) => !["/usr/sbin", "/usr/bin", "/usr/local/sbin"].some((d) => fs.existsSync(path.join(d, p))));
  return missing.length ? `${missing.join(" and ")} not installed: run \`apt-get install -y nginx pgbouncer\` (Debian's packages)` : null;
}

async function ensureDatabase(url: URL): Promise<void> {
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`the database name "${name}" must be letters, digits and underscores`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    const found = await sql`select 1 from pg_database where datname = ${name}`;
    if (found.length === 0) await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Runs a long-lived program with its output kept (and logged line by line when asked). */
function launch(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, log?: (l: string) => void) {
  let out = "";
  const child: ChildProcess = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const take = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    if (log) for (const line of d.toString().split("\n")) if (line.trim()) log(`[${name}] ${line}`);
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  return {
    child,
    output: () => out,
    // The whole process group: `npm start` is a launcher with web processes under it.
    kill: (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    },
  };
}

async function waitFor(what: string, check: () => Promise<boolean>, alive: () => boolean, output: () => string, seconds: number): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (!alive()) throw new Error(`${what} stopped while starting:\n${output().slice(-3000)}`);
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what} did not start within ${seconds} s:\n${output().slice(-3000)}`);
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.status === 200;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const problem = missingPrograms();
  if (problem) throw new Error(problem);
  if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const log = o.log;
  const direct = new URL(o.databaseUrl);
  await ensureDatabase(direct);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-cluster-"));
  const started: { name: string; kill: (s: NodeJS.Signals) => void; child: ChildProcess }[] = [];
  const stop = async () => {
    for (const p of [...started].reverse()) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      const exited = new Promise((ok) => p.child.once("exit", ok));
      p.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000)]);
      p.kill("SIGKILL");
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    // PgBouncer refuses to run as root: as root it runs as the postgres user, in a folder it owns.
    const asRoot = process.getuid?.() === 0;
    const poolerDir = path.join(dir, "pgbouncer");
    fs.mkdirSync(poolerDir);
    fs.writeFileSync(path.join(poolerDir, "pgbouncer.ini"), pgbouncerIni({ dir: poolerDir, port: o.poolerPort, upstream: direct, poolSize: 20 }));
    fs.writeFileSync(path.join(poolerDir, "userlist.txt"), pgbouncerUsers(decodeURIComponent(direct.username || "postgres")));
    if (asRoot) {
      // The run's folder is 0700: the postgres user may pass through it to its own folder.
      fs.chmodSync(dir, 0o711);
      execFileSync("chown", ["-R", "postgres:postgres", poolerDir]);
    }
    const pgbouncerArgs = [path.join(poolerDir, "pgbouncer.ini")];
    const pooler = asRoot
      ? launch("pgbouncer", "runuser", ["-u", "postgres", "--", "pgbouncer", ...pgbouncerArgs], process.env, log)
      : launch("pgbouncer", "pgbouncer", pgbouncerArgs, process.env, log);
    started.push({ name: "pgbouncer", ...pooler });
    const poolerUrl = new URL(direct);
    poolerUrl.hostname = "127.0.0.1";
    poolerUrl.port = String(o.poolerPort);
    await waitFor(
      "PgBouncer",
      async () => {
        const sql = postgres(poolerUrl.toString(), { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 2 });
        try {
          await sql`select 1`;
          return true;
        } finally {
          await sql.end({ timeout: 1 });
        }
      },
      () => pooler.child.exitCode === null,
      pooler.output,
      30,
    );

    // Both nodes start together: the migration lock (on the direct connection) lets one migrate.
    fs.mkdirSync(o.dataDir, { recursive: true });
    const nodes: ClusterNode[] = o.nodePorts.map((port, i) => {
      const name = `node-${String.fromCharCode(97 + i)}`;
      const env = {
        ...process.env,
        NODE_ENV: "production" as const,
        WEB_CONCURRENCY: "1",
        // Every node migrates at start (under the lock) and runs its own jobs runner.
        MIGRATE_ON_START: "true",
        JOBS_RUNNER: "embedded",
        ...o.nodeEnv,
        DATABASE_URL: poolerUrl.toString(),
        DATABASE_DIRECT_URL: direct.toString(),
        DATABASE_PREPARED_STATEMENTS: "off",
        TRUST_PROXY: "true",
        NODE_NAME: name,
        DATA_DIR: o.dataDir,
        PORT: String(port),
      };
      const p = launch(name, "node_modules/.bin/tsx", ["lib/server/start-cli.ts", "-p", String(port)], env, log);
      started.push({ name, ...p });
      return { name, port, output: p.output, kill: p.kill, exited: () => p.child.exitCode !== null || p.child.signalCode !== null };
    });
    await Promise.all(
      nodes.map((n) =>
        waitFor(
          n.name,
          async () => n.output().includes(READY_LINE),
          () => !n.exited(),
          n.output,
          240,
        ),
      ),
    );

    const balancerDir = path.join(dir, "nginx");
    fs.mkdirSync(path.join(balancerDir, "nginx-tmp"), { recursive: true });
    // nginx's workers run as nobody when started by root: its temporary files must be theirs to write.
    fs.chmodSync(path.join(balancerDir, "nginx-tmp"), 0o777);
    fs.writeFileSync(path.join(balancerDir, "nginx.conf"), nginxConf({ dir: balancerDir, port: o.port, nodePorts: o.nodePorts }));
    const balancer = launch(
      "nginx",
      "nginx",
      ["-c", path.join(balancerDir, "nginx.conf"), "-p", balancerDir, "-e", path.join(balancerDir, "nginx-error.log")],
      process.env,
      log,
    );
    started.push({ name: "nginx", ...balancer });
    const url = `http://127.0.0.1:${o.port}`;
    await waitFor(
      "nginx",
      () => answers(`${url}/api/health/ready`),
      () => balancer.child.exitCode === null,
      () =>
        `${balancer.output()}${fs.existsSync(path.join(balancerDir, "nginx-error.log")) ? fs.readFileSync(path.join(balancerDir, "nginx-error.log"), "utf8") : ""}`,
      30,
    );
    return { url, nodes, poolerUrl: poolerUrl.toString(), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
