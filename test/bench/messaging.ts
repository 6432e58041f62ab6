/**
 * Messaging benchmark on PostgreSQL, route handlers called in-process with real `Request`s (no
 * `next build` needed; the Next.js HTTP layer adds the same fixed cost to every route):
 *
 * - conversations list: p50 with 10,000 conversations in the tenant over 3 channels (one with a
 *   privacy whitelist): first page, a deep cursor page, unread_first, search, one channel. Target
 *   p50 ≤ 20 ms.
 * - detail overhead: the detail's p50 minus the p50 of the same history request sent straight to
 *   the gateway (a WAHA-like server on 127.0.0.1 with 30 messages and a fixed 20 ms delay). Target ≤ 10 ms.
 * - inbound webhook: signed WAHA `message` webhooks from 20 concurrent senders, each stored before
 *   its 200; events stored per second (target ≥ 500), then the processing job's rate.
 *
 *   DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres npm run bench:messaging
 *   BENCH_CONVERSATIONS=10000 BENCH_REQUESTS=400 BENCH_WEBHOOKS=3000 (defaults)
 */
import os from "node:os";
import { sql } from "drizzle-orm";
import * as listRoute from "../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../app/api/v1/messaging/conversations/detail/route";
import * as webhookRoute from "../../app/api/webhooks/messaging/[channelToken]/route";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { createMessagingChannel } from "../../lib/messaging/channels";
import { processMessagingEvents } from "../../lib/messaging/inbound/process-events";
import { createMember } from "../../lib/tenants/members";
import { issueApiKey } from "../../lib/auth/api-keys";
import { createTenant } from "../../lib/admin/create-tenant";
import { startFakeWaha } from "../fakes/waha-gateway";
import { percentiles, scratchDatabase } from "./http-load";

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 3000);
const SENDERS = 20;
const GATEWAY_DELAY_MS = 20;

const ms = (v: number) => `${v.toFixed(2)} ms`;
const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(", ");

async function timed(n: number, fn: (i: number) => Promise<Response | unknown>, warmup = 20): Promise<{ p50: number; p95: number; p99: number }> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fn(i);
    if (r instanceof Response) {
      if (r.status !== 200) throw new Error(`status ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    }
    times.push(performance.now() - t0);
  }
  return percentiles(times);
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.MESSAGING_RATE_LIMITS = "off"; // 1000/h per key would stop the run; the limiter is one upsert per request
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true"; // the gateway is on 127.0.0.1
  process.env.JOBS_RUNNER = "off";
  await scratchDatabase("crm_bench_messaging", false);
  await runMigrations();
  const db = await getDb();
  const gw = await startFakeWaha();
  const t = await createTenant({ db }, { name: "Bench Messaging", owner: { name: "Dona", email: "dona@bench-msg.example.com" } });
  const ownerCtx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const broker = await createMember(ownerCtx, { name: "Ana Corretora", email: "ana@bench-msg.example.com", role: "broker" });
  const key = (await issueApiKey(db, t.tenantId, broker.id, "bench", "broad")).key;
  const origin = "http://localhost";
  const channels = [];
  for (const [i, privacyMode] of (["off", "off", "whitelist"] as const).entries()) {
    channels.push(
      await createMessagingChannel(ownerCtx, {
        origin,
        body: {
          name: `WhatsApp ${i}`,
          transport: "whatsapp",
          provider: "waha",
          baseUrl: gw.url,
          apiKey: gw.apiKey,
          sessionName: gw.session,
          ownerId: broker.id,
          privacyMode,
        },
      }),
    );
  }
  const ids = channels.map((c) => c.id);
  console.log(`Loading ${CONVERSATIONS} conversations over ${ids.length} channels...`);
  await db.execute(sql`
    insert into messaging_conversations (tenant_id, channel_id, chat_id, display_name, handle_masked, kind, last_activity_at, last_preview, last_from_me, unread_count, awaiting_reply)
    select ${t.tenantId}::uuid, (array[${sql.raw(ids.map((i) => `'${i}'::uuid`).join(","))}])[1 + g % 3],
      (5511900000000 + g)::text || '@c.us', 'Cliente ' || g, '+55 •••••••' || lpad((g % 10000)::text, 4, '0'), 'contact',
      now() - make_interval(secs => g * 37), 'Mensagem de teste número ' || g, g % 4 = 0, case when g % 5 = 0 then g % 7 else 0 end, g % 3 = 1
    from generate_series(1, ${CONVERSATIONS}) g`);
  // The whitelist channel: half its chats whitelisted, a tenth pending, the rest hidden.
  await db.execute(sql`
    insert into messaging_chat_privacy (tenant_id, channel_id, chat_id, state)
    select tenant_id, channel_id, chat_id, case when row_number() over (order by chat_id) % 10 = 0 then 'pending' else 'whitelisted' end
    from messaging_conversations where channel_id = ${ids[2]}::uuid and (substring(chat_id, 1, 13)::bigint % 2 = 0)`);
  // The conversations' copy of their privacy entry, as setChatPrivacy keeps it.
  await db.execute(sql`
    update messaging_conversations c set privacy_state = p.state from messaging_chat_privacy p
    where p.channel_id = c.channel_id and p.chat_id = c.chat_id and c.tenant_id = ${t.tenantId}::uuid`);
  await db.execute(sql`vacuum analyze`);
  const count = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from messaging_conversations where tenant_id = ${t.tenantId}::uuid`))[0].n;
  console.log(`${count} conversations in the tenant. Load average before: ${load()}`);

  const get = (handler: (req: Request, s?: any) => Promise<Response>, path: string, q: Record<string, string>) => {
    const u = new URL(path, origin);
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return handler(new Request(u, { headers: { "x-api-key": key } }), { params: Promise.resolve({}) });
  };
  const first = await (await get(listRoute.GET, "/api/v1/messaging/conversations", { limit: "50" })).json();
  // A cursor 20 pages deep.
  let cursor = first.page.nextCursor as string;
  for (let i = 0; i < 19; i++) cursor = (await (await get(listRoute.GET, "/api/v1/messaging/conversations", { limit: "50", cursor })).json()).page.nextCursor;

  console.log(`\nConversations list (${REQUESTS} sequential requests each, limit 50):`);
  const cases: [string, Record<string, string>][] = [
    ["first page", { limit: "50" }],
    ["page 21 (cursor)", { limit: "50", cursor }],
    ["sort=unread_first", { limit: "50", sort: "unread_first" }],
    ["search=Cliente 12", { limit: "50", search: "Cliente 12" }],
    ["channelId (whitelist channel)", { limit: "50", channelId: ids[2] }],
    ["awaitingReplyOnly", { limit: "50", awaitingReplyOnly: "true" }],
  ];
  for (const [name, q] of cases) {
    const r = await timed(REQUESTS, () => get(listRoute.GET, "/api/v1/messaging/conversations", q));
    console.log(`  ${name.padEnd(32)} p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}`);
  }

  // Detail: 30 messages on the gateway, which answers after a fixed delay.
  const chat = "5511900000003@c.us";
  const base = Math.floor(Date.now() / 1000) - 3600;
  for (let i = 0; i < 30; i++) gw.addMessage(chat, { body: `mensagem ${i}`, timestamp: base + i * 60, fromMe: i % 2 === 0 });
  gw.state.switches.delayMs = GATEWAY_DELAY_MS;
  const channelOf = rowsOf<{ channel_id: string }>(await db.execute(sql`select channel_id from messaging_conversations where chat_id = ${chat}`))[0].channel_id;
  const direct = `${gw.url}/api/${gw.session}/chats/${encodeURIComponent(chat)}/messages?limit=31&downloadMedia=false`;
  const n = Math.min(REQUESTS, 200);
  const gwOnly = await timed(n, async () => {
    const r = await fetch(direct, { headers: { "x-api-key": gw.apiKey } });
    await r.arrayBuffer();
  });
  const detail = await timed(n, () => get(detailRoute.GET, "/api/v1/messaging/conversations/detail", { channelId: channelOf, chatId: chat, limit: "30" }));
  console.log(`\nConversation detail (30 messages, gateway delay ${GATEWAY_DELAY_MS} ms, ${n} sequential requests):`);
  console.log(`  gateway alone                    p50 ${ms(gwOnly.p50)}  p95 ${ms(gwOnly.p95)}`);
  console.log(`  detail                           p50 ${ms(detail.p50)}  p95 ${ms(detail.p95)}`);
  console.log(`  overhead (p50 difference)        ${ms(detail.p50 - gwOnly.p50)}`);
  gw.state.switches.delayMs = 0;

  // Inbound webhooks: signed bodies prepared first; 20 concurrent senders.
  const secret = channels[0].webhook!.hmacSecret;
  const token = channels[0].webhook!.url.split("/").pop()!;
  const bodies = Array.from({ length: WEBHOOKS }, (_, i) =>
    gw.webhook(secret, "message", {
      id: `false_55119${i}@c.us_BENCH${i}`,
      timestamp: base + i,
      fromMe: false,
      from: `5511${(800000000 + (i % 2000)).toString()}@c.us`,
      to: "5511900000000@c.us",
      body: `olá ${i}`,
    }),
  );
  const before = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from messaging_inbound_events`))[0].n;
  let next = 0;
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < bodies.length) {
        const wh = bodies[next++];
        const s = performance.now();
        const res = await webhookRoute.POST(new Request(`${origin}/api/webhooks/messaging/${token}`, { method: "POST", headers: wh.headers, body: wh.body }), {
          params: Promise.resolve({ channelToken: token }),
        });
        if (res.status !== 200) throw new Error(`webhook ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        times.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const stored = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from messaging_inbound_events`))[0].n - before;
  const p = percentiles(times);
  console.log(`\nInbound webhook (${WEBHOOKS} signed WAHA messages, ${SENDERS} concurrent senders):`);
  console.log(
    `  stored ${stored} in ${seconds.toFixed(2)} s = ${(stored / seconds).toFixed(0)} events/s   ack p50 ${ms(p.p50)}  p95 ${ms(p.p95)}  p99 ${ms(p.p99)}`,
  );
  const p0 = performance.now();
  let processed = 0;
  for (;;) {
    const r = await processMessagingEvents(db, 200);
    processed += r.processed;
    if (r.claimed === 0) break;
  }
  const ps = (performance.now() - p0) / 1000;
  console.log(`  processed ${processed} into conversations and events in ${ps.toFixed(2)} s = ${(processed / ps).toFixed(0)} events/s`);
  console.log(`\nLoad average after (1, 5, 15 min): ${load()} on ${os.cpus().length} CPUs`);
  await gw.close();
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
