/**
 * Web chat benchmark on PostgreSQL against the production server (`npm start`, two web processes
 * by default): 200 visitors each hold an open Server-Sent Events stream (one TCP connection each, so
 * the launcher spreads them over the web processes), then
 *   (1) members reply through `POST /api/v1/messaging/reply` at a steady rate, each reply timed from
 *       its request to its arrival on the visitor's stream (issue 35: p95 ≤ 500 ms, wherever the
 *       stream is held: the reply is announced by PostgreSQL NOTIFY to every process);
 *   (2) visitors post messages at 1,000 a second across the 200 conversations (open loop: each is
 *       due at its time), each timed to its 201 (stored) and to its arrival on its own stream,
 *       while members keep replying at a low rate (their replies timed as in 1);
 * then counts what the store holds. Prints p50/p95/p99 of each latency and the achieved rates.
 *
 *   npm run build && DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres npm run bench:web-chat
 *   BENCH_STREAMS=200 BENCH_RATE=1000 BENCH_SECONDS=10 BENCH_REPLIES=300 BENCH_REPLY_RATE=30
 *   BENCH_PORT=3214 BENCH_DB=crm_bench_web_chat WEB_CONCURRENCY=2 (defaults)
 */
import http from "node:http";
import os from "node:os";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { createTenant } from "../../lib/admin/create-tenant";
import { loadClient, paced, percentiles, scratchDatabase, startServer } from "./http-load";
import { takeSseEvents } from "../helpers/sse";
import { cpuPerUnit, cpuSnapshot } from "./proc-cpu";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 300);
const REPLY_RATE = Number(process.env.BENCH_REPLY_RATE ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 3214);
const WEB = process.env.WEB_CONCURRENCY ?? "2";
/** Connections the visitors' posts share (keep-alive; more would only add sockets for the server to poll). */
const POSTERS = 64;

type Visitor = { token: string; chatId: string; connected: boolean; events: number };
/** When each awaited message was sent (key: clientMessageId, or the reply's text), and when it arrived. */
const sentAt = new Map<string, number>();
const arrivals: { replies: number[]; visitors: number[] } = { replies: [], visitors: [] };

/** One visitor's stream on a connection of its own; records the arrival of every awaited message. */
function openStream(base: string, streamPath: string, v: Visitor): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${streamPath}`, { agent: false, headers: { authorization: `Bearer ${v.token}`, accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      v.connected = true;
      resolve();
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const now = performance.now();
        const taken = takeSseEvents(buf + chunk);
        buf = taken.rest;
        for (const { data } of taken.events) {
          v.events++;
          const m = JSON.parse(data) as { direction: string; text: string; clientMessageId: string | null };
          const key = m.direction === "inbound" ? m.clientMessageId! : m.text;
          const at = sentAt.get(key);
          if (at === undefined) continue;
          sentAt.delete(key);
          (m.direction === "inbound" ? arrivals.visitors : arrivals.replies).push(now - at);
        }
      });
      res.on("end", () => {
        v.connected = false;
      });
    });
    req.on("error", reject);
  });
}

const line = (name: string, xs: number[]) => {
  const p = percentiles(xs);
  return `${name}: p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms (${xs.length})`;
};

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const dbName = process.env.BENCH_DB ?? "crm_bench_web_chat";
  const dbUrl = await scratchDatabase(dbName, false);
  await runMigrations();
  const db = await getDb();
  const t = await createTenant({ db }, { name: "Bench Chat", owner: { name: "Dona", email: "dona@bench-chat.example.com" } });
  await closeDb();

  const server = await startServer(PORT, { DATABASE_URL: dbUrl, WEB_CONCURRENCY: WEB, MESSAGING_RATE_LIMITS: "off" });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void server.stop().then(() => process.exit(1)));
  const client = loadClient(POSTERS);
  const key = { authorization: `Bearer ${t.apiKey}` };
  const json = async (method: string, path: string, body: unknown, headers: Record<string, string> = key, expect = [200, 201]) => {
    const r = await client.send(`${server.base}${path}`, { method, body: JSON.stringify(body), headers, readBody: true });
    if (!expect.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body!);
  };
  try {
    const channel = await json("POST", "/api/v1/settings/messaging-channels", { name: "Chat", transport: "web_chat" });
    const site = await json("POST", "/api/v1/sites", {
      name: "Bench",
      domain: "bench-chat.localhost",
      published: true,
      chat: { channelId: channel.id, hours: null },
    });
    const chat = `/api/sites/${site.id}/chat`;

    const visitors: Visitor[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const s = await json("POST", `${chat}/sessions`, { name: `Visitante ${i}` }, {});
      visitors.push({ token: s.sessionToken, chatId: s.conversationKey.chatId, connected: false, events: 0 });
    }
    await Promise.all(visitors.map((v) => openStream(server.base, `${chat}/stream`, v)));
    console.log(`${STREAMS} sessions with an open stream each (${server.web} web processes)`);

    let replyN = 0;
    const reply = async (i: number) => {
      const v = visitors[i % STREAMS];
      const text = `r-${++replyN}`;
      sentAt.set(text, performance.now());
      return client.send(`${server.base}/api/v1/messaging/reply`, {
        method: "POST",
        headers: key,
        body: JSON.stringify({ channelId: channel.id, chatId: v.chatId, body: { kind: "text", text } }),
      });
    };
    // Warm-up (JIT, pools, the LISTEN connections), not counted.
    await Promise.all(Array.from({ length: 40 }, (_, i) => reply(i)));
    await new Promise((r) => setTimeout(r, 1000));
    arrivals.replies.length = 0;

    // (1) Replies alone.
    const r1 = await paced(reply, REPLIES, REPLY_RATE, 10);
    await new Promise((r) => setTimeout(r, 2000));
    console.log(
      `(1) member replies at ${REPLY_RATE}/s (ack ${r1.p50.toFixed(1)} / ${r1.p95.toFixed(1)} ms p50/p95${r1.failures ? `, ${r1.failures} failed` : ""})`,
    );
    console.log(`    ${line("reply to stream", arrivals.replies)}; not delivered: ${REPLIES - arrivals.replies.length}`);

    // (2) Visitors at RATE a second, members replying meanwhile.
    arrivals.replies.length = 0;
    const total = RATE * SECONDS;
    let lost = 0;
    const post = (i: number) => {
      const v = visitors[i % STREAMS];
      const id = `m-${i}`;
      sentAt.set(id, performance.now());
      return client.send(`${server.base}${chat}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${v.token}` },
        body: JSON.stringify({ text: `Mensagem ${i} do visitante`, clientMessageId: id }),
      });
    };
    const cpuBefore = cpuSnapshot(server.pid, dbName);
    const clientBefore = process.cpuUsage();
    const replying = paced(reply, REPLY_RATE * SECONDS, REPLY_RATE, 4);
    const r2 = await paced(post, total, RATE, POSTERS, (s) => s === 201);
    const r3 = await replying;
    await new Promise((r) => setTimeout(r, 3000));
    // The phase's whole CPU (its replies and the background work it caused included) over its visitor messages.
    const cpuAfter = cpuSnapshot(server.pid, dbName);
    const clientCpu = process.cpuUsage(clientBefore);
    lost = [...sentAt.keys()].filter((k) => k.startsWith("m-")).length;
    const accepted = total - r2.failures;
    console.log(
      `(2) visitor messages due at ${RATE}/s for ${SECONDS} s: accepted ${accepted} of ${total} at ${r2.rps.toFixed(0)}/s achieved; 201 p50 ${r2.p50.toFixed(1)} ms, p95 ${r2.p95.toFixed(1)}, p99 ${r2.p99.toFixed(1)} (from the due time)`,
    );
    console.log(`    ${line("visitor message to its stream", arrivals.visitors)}; not delivered: ${lost}`);
    console.log(`    ${line("reply to stream meanwhile", arrivals.replies)} (ack p95 ${r3.p95.toFixed(1)} ms)`);
    console.log(
      `    ${cpuPerUnit(cpuBefore, cpuAfter, total, "visitor message")}, this bench client ${((clientCpu.user + clientCpu.system) / 1000 / total).toFixed(2)} ms`,
    );

    const d2 = await getDb();
    const [stored] = rowsOf<{ n: number }>(
      await d2.execute(sql`select count(*)::int as n from messaging_messages where direction = 'inbound' and client_message_id like 'm-%'`),
    );
    console.log(`    stored visitor messages: ${stored.n}; streams still open: ${visitors.filter((v) => v.connected).length} of ${STREAMS}`);
  } finally {
    const load = os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(", ");
    console.log(`Load average after (1, 5, 15 min): ${load} on ${os.cpus().length} CPUs`);
    await server.stop();
    await closeDb();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
