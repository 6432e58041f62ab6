import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { READY_LINE } from "../../lib/server/cluster-plan";

/** Why production-build tests cannot run here, or null: they need the build and PostgreSQL. */
export function productionSkipReason(dbKind: "pglite" | "postgres"): string | null {
  if (dbKind !== "postgres") return "it needs PostgreSQL (two web processes share it; CI runs it with `npm run test:pg`)";
  if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID")))
    return "it needs the production build (`npm run build` first; CI builds before `npm run test:pg`)";
  return null;
}

export const freePort = async (): Promise<number> => {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
};

export type ProductionServer = { port: number; output: () => string; stop: () => Promise<void> };

/**
 * `npm start` of the production build, as an operator runs it (the launcher and its web
 * processes and jobs worker), on its own data folder; resolves once every web process has booted.
 */
export async function startProduction(env: Record<string, string>): Promise<ProductionServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-prod-"));
  let out = "";
  // What `npm start` runs (package.json), without npm in between (signals reach the launcher).
  const child: ChildProcess = spawn("node_modules/.bin/tsx", ["lib/server/start-cli.ts", "-p", String(port)], {
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", DATA_DIR: dataDir, OPERATOR_TOKEN: "prod-test-operator-token-0123", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((ok) => child.once("exit", ok));
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 240 && child.exitCode === null && !out.includes(READY_LINE); i++) await new Promise((r) => setTimeout(r, 250));
  if (!out.includes(READY_LINE)) {
    await stop();
    throw new Error(`npm start did not become ready:\n${out.slice(-3000)}`);
  }
  return { port, output: () => out, stop };
}

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * One request on a connection of its own (no keep-alive), so the cluster hands successive
 * requests to its web processes in turn, as separate visitors' requests would be.
 */
export function send(
  port: number,
  method: string,
  pathname: string,
  o: { host?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path: pathname, agent: false, headers: { host: o.host ?? `localhost:${port}`, connection: "close", ...o.headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

export const json = (port: number, method: string, pathname: string, key: string | null, body?: unknown, extra: Record<string, string> = {}) =>
  send(port, method, pathname, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((a) => ({ ...a, json: a.body ? JSON.parse(a.body) : null }));
