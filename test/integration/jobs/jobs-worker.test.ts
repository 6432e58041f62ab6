/**
 * `JOBS_RUNNER=worker`: the web process stores leads and runs no jobs; the separate jobs worker
 * (`npm run jobs`) is woken by PostgreSQL NOTIFY and processes them at once, and on its start it
 * sweeps what waited while it was down. Two processes share the database, so this runs on
 * PostgreSQL (`npm run test:pg`, CI); the embedded database admits one process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { memberCtx } from "../../../lib/context/verb-context";
import { createChannel } from "../../../lib/leads/marketing-channels";
import { createTenant } from "../../../lib/admin/create-tenant";
import { createMember } from "../../../lib/tenants/members";
import { TEMPLATE_DB } from "../../setup/global-db";
import { postLead } from "../../helpers/path-token-server";

const tpl = inject("dbTemplate");
if (tpl.kind !== "postgres")
  console.log("jobs-worker: skipped, it needs PostgreSQL (set DATABASE_URL, as `npm run test:pg` and CI do); the embedded database is single-process");

/** Starts a child and resolves once its stdout says `ready` (with the rest of that line). */
function startChild(args: string[], env: Record<string, string>, ready: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    // A claim goes stale after 10 minutes, so the worker's own schedule sweeps only every 30 s: a
    // lead processed within seconds was woken by the notification.
    env: { ...process.env, ...env, LEAD_CLAIM_TIMEOUT_SECONDS: "600", DATA_DIR: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      const line = d
        .toString()
        .split("\n")
        .find((l) => l.includes(ready));
      if (line) resolve({ child, line });
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

describe.skipIf(tpl.kind !== "postgres")("jobs worker process (JOBS_RUNNER=worker)", () => {
  it("processes leads the web process stored, woken at once, and catches up after a restart", async () => {
    if (tpl.kind !== "postgres") return;
    const name = `crm_worker_${randomBytes(5).toString("hex")}`;
    const admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
    const url = new URL(tpl.url);
    url.pathname = `/${name}`;
    const dbUrl = url.toString();
    const client = postgres(dbUrl, { max: 2, onnotice: () => {} });
    const db = drizzle({ client, schema }) as unknown as Db;
    const children: ChildProcess[] = [];
    const statuses = async () => (await client<{ status: string }[]>`select status from inbound_leads order by received_at`).map((r) => r.status);
    const waitFor = async (ok: (s: string[]) => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!ok(await statuses()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return statuses();
    };
    try {
      const t = await createTenant({ db }, { name: "Worker Realty", owner: { name: "Dona", email: "dona@worker.example.com" } });
      const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
      const broker = await createMember(ctx, { name: "Corretor", email: "c@worker.example.com" });
      const channel = await createChannel(ctx, { name: "Portal", kind: "portal", queue: [broker.id] });
      const env = { DATABASE_URL: dbUrl, LOG_LEVEL: "info" };
      const web = await startChild(["test/fixtures/lead-server.mts"], { ...env, JOBS_RUNNER: "worker", LEAD_SERVER_PORT: "0" }, "listening");
      children.push(web.child);
      const port = Number(/listening (\d+)/.exec(web.line)![1]);
      const lead = (i: number) => JSON.stringify({ name: `Lead ${i}`, phone: `+5511987${String(650_000 + i)}`, originLeadId: `w-${i}` });

      // No worker yet: the web process stores and answers, and nothing processes.
      expect(await postLead(port, channel.pathToken, lead(0))).toBe(202);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await statuses()).toEqual(["received"]);

      // The worker starts: it sweeps the lead that waited, then each new lead's NOTIFY wakes it.
      const { child: worker } = await startChild(["lib/server/jobs-worker-cli.ts"], env, "jobs worker listening");
      children.push(worker);
      let output = "";
      worker.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      expect(await waitFor((s) => s[0] === "processed", 10_000)).toEqual(["processed"]);
      const started = Date.now();
      for (let i = 1; i <= 20; i++) expect(await postLead(port, channel.pathToken, lead(i))).toBe(202);
      const after = await waitFor((s) => s.every((x) => x === "processed"), 15_000);
      expect(after).toEqual(Array(21).fill("processed"));
      expect(Date.now() - started).toBeLessThan(15_000); // well before the 30 s schedule
      const [{ deals }] = await client<{ deals: number }[]>`select count(*)::int as deals from deals where marketing_channel_instance_id = ${channel.id}`;
      expect(deals).toBe(21);

      // Its LISTEN connection drops (a failover, a restart of PostgreSQL) while a lead's
      // notification is lost (stored here without one): it listens again and sweeps, long before
      // its 30 s schedule.
      const listens = () => output.split("jobs worker listening").length - 1;
      await client`insert into inbound_leads (tenant_id, channel_id, origin_lead_id, destination, raw_body, headers, lead)
        select tenant_id, channel_id, 'w-unannounced', destination, raw_body, headers, lead || '{"originLeadId": "w-unannounced"}' from inbound_leads where origin_lead_id = 'w-1'`;
      const swept = Date.now();
      const [{ n }] = await client<
        { n: number }[]
      >`select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'crm-jobs-worker' and datname = ${name}) x`;
      expect(n).toBe(1);
      // Within 8 s: the worker's own schedule is 30 s after its start, which was only seconds ago.
      expect(await waitFor((s) => s.length === 22 && s.every((x) => x === "processed"), 8_000)).toEqual(Array(22).fill("processed"));
      expect(Date.now() - swept).toBeLessThan(8_000);
      expect(listens()).toBeGreaterThanOrEqual(1);

      // SIGTERM stops it cleanly: current runs finish within the bound, the database is closed.
      const exited = new Promise<number | null>((r) => worker.once("exit", (code) => r(code)));
      worker.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toContain("shutdown complete");
      expect(output).not.toContain("shutdown bound reached");
    } finally {
      for (const c of children) c.kill("SIGKILL");
      await client.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 90_000);
});
