/**
 * A lead answered 2xx is never lost and never doubled, even when the server dies: 1,000 leads from
 * 20 concurrent clients (one in five repeats an earlier `originLeadId`), the server process killed
 * with SIGKILL in the middle of the burst and started again, clients retrying what got no answer
 * as a portal does. Needs a database both processes share, so it runs on PostgreSQL (CI runs it
 * with `npm run test:pg`); the embedded database is single-process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { createChannel } from "../../../lib/leads/marketing-channels";
import { memberCtx } from "../../../lib/context/verb-context";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { createTenant } from "../../../lib/admin/create-tenant";
import { createMember } from "../../../lib/tenants/members";
import { drizzle } from "drizzle-orm/postgres-js";
import * as schema from "../../../db/schema";
import type { Db } from "../../../db/client";
import { TEMPLATE_DB } from "../../setup/global-db";
import { postLead } from "../../helpers/path-token-server";

const tpl = inject("dbTemplate");
const LEADS = 1000;
const CLIENTS = 20;

if (tpl.kind !== "postgres")
  console.log("crash-recovery: skipped, it needs PostgreSQL (set DATABASE_URL, as `npm run test:pg` and CI do); the embedded database is single-process");

function startServer(dbUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/lead-server.mts"], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      JOBS_RUNNER: "embedded",
      LOG_LEVEL: "error",
      LEAD_CLAIM_TIMEOUT_SECONDS: "2",
      LEAD_SERVER_PORT: String(port),
      DATA_DIR: "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve(child));
    child.on("exit", (code) => reject(new Error(`lead server exited with ${code}`)));
  });
}

describe.skipIf(tpl.kind !== "postgres")("SIGKILL in the middle of a burst of leads", () => {
  it("processes every lead answered 2xx exactly once, with one deal per originLeadId", async () => {
    if (tpl.kind !== "postgres") return;
    const name = `crm_crash_${randomBytes(5).toString("hex")}`;
    const admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
    const url = new URL(tpl.url);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 3, onnotice: () => {} });
    const db = drizzle({ client, schema }) as unknown as Db;
    let server: ChildProcess | undefined;
    try {
      const t = await createTenant({ db }, { name: "Crash Realty", owner: { name: "Dona", email: "dona@crash.example.com" } });
      const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
      const broker = await createMember(ctx, { name: "Corretor", email: "c@crash.example.com" });
      const channel = await createChannel(ctx, { name: "Portal", kind: "portal", queue: [broker.id] });
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      server = await startServer(url.toString(), port);

      const origin = (i: number) => `lead-${i % 5 === 4 ? i - 1 : i}`; // one in five repeats the previous lead
      const acked = new Set<string>();
      let next = 0;
      let killed = false;
      let restarted: Promise<void> | null = null;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < LEADS) {
            const i = next++;
            const body = JSON.stringify({ name: `Lead ${i}`, phone: `+55119${String(20_000_000 + i).slice(-8)}`, originLeadId: origin(i) });
            for (let attempt = 0; ; attempt++) {
              if (!killed && i >= LEADS * 0.4) {
                killed = true;
                server!.kill("SIGKILL");
                restarted = new Promise((r) => setTimeout(r, 300)).then(async () => {
                  server = await startServer(url.toString(), port);
                });
              }
              if (restarted) await restarted;
              const status = await postLead(port, channel.pathToken, body);
              if (status === 200 || status === 202) {
                acked.add(origin(i));
                break;
              }
              if (status !== 0 || attempt > 50) throw new Error(`lead ${i}: status ${status} after ${attempt + 1} attempts`);
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        }),
      );
      expect(killed).toBe(true);

      // Wait for processing to drain (leads a killed worker held are taken over after 2 s).
      const deadline = Date.now() + 90_000;
      let state = { stored: 0, processed: 0 };
      while (Date.now() < deadline) {
        [state] = await client<
          { stored: number; processed: number }[]
        >`select count(*)::int as stored, count(*) filter (where status = 'processed')::int as processed from inbound_leads`;
        if (state.stored > 0 && state.processed === state.stored) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const leads = await client<{ origin_lead_id: string; status: string; deal_ids: string[] }[]>`select origin_lead_id, status, deal_ids from inbound_leads`;
      const deals = await client<{ id: string }[]>`select id from deals where marketing_channel_instance_id = ${channel.id}`;
      // Every acknowledged lead is stored and processed; one lead row and one deal per origin id.
      expect(new Set(leads.map((l) => l.origin_lead_id))).toEqual(acked);
      expect(leads).toHaveLength(acked.size);
      expect(leads.filter((l) => l.status !== "processed")).toEqual([]);
      expect(deals).toHaveLength(acked.size);
      expect(new Set(leads.flatMap((l) => l.deal_ids))).toEqual(new Set(deals.map((d) => d.id)));
      const [{ retried }] = await client<{ retried: number }[]>`select count(*)::int as retried from inbound_leads where attempts > 1`;
      console.log(`crash-recovery: ${acked.size} distinct leads acknowledged, ${retried} claimed again after the kill`);
    } finally {
      server?.kill("SIGKILL");
      await client.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 180_000);
});
