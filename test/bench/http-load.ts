/**
 * Shared tools of the HTTP benchmarks: a keep-alive load generator, percentiles, the bare Node
 * ceiling, a scratch PostgreSQL database, and the production server started on it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { READY_LINE } from "../../lib/server/cluster-plan";
import type { AddressInfo } from "node:net";
import postgres from "postgres";

export type Result = { rps: number; p50: number; p95: number; p99: number; failures: number };
export type Answer = { status: number; body?: string };

/**
 * The load generator: Node's http client on a keep-alive agent (one socket per client). Lighter
 * than fetch, so on this 2-core machine more of the CPU goes to the server being measured.
 */
export function loadClient(clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const send = (url: string, init: { method?: string; body?: string; readBody?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers = { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers };
      const req = http.request(url, { method: init.method ?? "GET", agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        if (init.readBody) res.on("data", (c: Buffer) => chunks.push(c));
        else res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: init.readBody ? Buffer.concat(chunks).toString("utf8") : undefined }));
      });
      req.on("error", reject);
      req.end(init.body);
    });

  /** `n` requests from `clients` concurrent clients after a warm-up; `ok` says which statuses count as success. */
  async function hammer(n: number, request: (i: number) => Promise<Answer>, ok: (status: number) => boolean = (s) => s === 200, warmup = 30): Promise<Result> {
    for (let i = 0; i < warmup; i++) await request(-1 - i);
    const times: number[] = [];
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < n) {
          const i = next++;
          const t0 = performance.now();
          const res = await request(i);
          if (!ok(res.status)) failures++;
          times.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { ...percentiles(times), rps: n / seconds, failures };
  }
  return { send, hammer };
}

/**
 * `n` requests sent on a fixed schedule of `rate` a second over `clients` connections (open loop:
 * each is due at its time whatever the answers before it). Latency counts from the due time, so a
 * request that waited for a free connection counts its wait (no coordinated omission).
 */
export async function paced(
  send: (i: number) => Promise<Answer>,
  n: number,
  rate: number,
  clients: number,
  ok: (status: number) => boolean = (s) => s === 200,
) {
  const times: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < n) {
        const i = next++;
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const res = await send(i);
        if (!ok(res.status)) failures++;
        times.push(performance.now() - due);
      }
    }),
  );
  const endedAt = performance.now();
  return { ...percentiles(times), rps: n / ((endedAt - started) / 1000), failures, endedAt };
}

export function percentiles(times: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

export const fmt = (r: Result) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.failures ? `, ${r.failures} failed` : ""}`;

/** The ceiling: Node's own HTTP server answering a fixed JSON body, measured with the same clients. */
export async function bareNode(requests: number, clients: number): Promise<Result> {
  const body = JSON.stringify({ ok: true, items: Array.from({ length: 12 }, (_, i) => ({ id: i, title: "Apartamento" })) });
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((ok) => server.listen(0, ok));
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  try {
    const client = loadClient(clients);
    return await client.hammer(requests, () => client.send(`${base}/`));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}

/** A database of its own on the server of `DATABASE_URL` (dropped and created unless `reuse`); returns its URL. */
export async function scratchDatabase(name: string, reuse: boolean): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to a PostgreSQL server: the production server and this script share the database.");
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  if (!reuse) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  }
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  process.env.DATABASE_URL = u.toString();
  return u.toString();
}

/**
 * `npm start` of the production build on the database (the launcher: one web process per core on
 * PostgreSQL unless `WEB_CONCURRENCY` says otherwise), once every web process has booted and the
 * readiness probe answers, so no keep-alive client is handed to a process still starting.
 */
export async function startServer(port: number, env: Record<string, string>): Promise<{ base: string; stop: () => Promise<void>; web: number; pid: number }> {
  // BENCH_NODE_ARGS: Node flags for the server's processes (web processes inherit them), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const server: ChildProcess = spawn("node_modules/.bin/tsx", [...nodeArgs, "lib/server/start-cli.ts", "-p", String(port)], {
    env: { ...process.env, LOG_LEVEL: "warn", NODE_ENV: "production", PUBLIC_RATE_LIMITS: "off", ...env },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  let web = 0;
  server.stdout!.on("data", (d: Buffer) => {
    const m = d.toString().match(new RegExp(`${READY_LINE}: (\\d+) web process`));
    if (m) web = Number(m[1]);
  });
  const base = `http://localhost:${port}`;
  const ready = () =>
    fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
  for (let i = 0; i < 120 && server.exitCode === null && !(web && (await ready())); i++) await new Promise((r) => setTimeout(r, 500));
  // A server that did not start (port taken, build missing) must not let another one be measured.
  if (server.exitCode !== null || !web || !(await ready())) {
    throw new Error(`The server on port ${port} did not become ready: is the port free and the build current (npm run build)?`);
  }
  console.log(`Server: npm start with ${web} web process(es) (WEB_CONCURRENCY=${env.WEB_CONCURRENCY ?? process.env.WEB_CONCURRENCY ?? "unset: one per core"})`);
  return {
    base,
    web,
    pid: server.pid!,
    stop: async () => {
      try {
        process.kill(-server.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 1500));
    },
  };
}
