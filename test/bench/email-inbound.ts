/**
 * Inbound e-mail benchmark on PostgreSQL: real MIME messages posted to an e-mail channel's webhook
 * (route handler called in-process with real `Request`s), each parsed with mailparser, threaded and
 * stored before its 200. The mix: 60% plain text with a quoted reply and a signature, 20% answers in
 * earlier threads (`In-Reply-To`/`References`), 10% HTML-only, 10% multipart with a 20 KB PDF.
 * Reports messages parsed and stored per second (target ≥ 200/s) from 10 concurrent senders, the
 * ack percentiles, then the processing job's rate into conversations and events.
 *
 *   DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres npm run bench:email
 *   BENCH_EMAILS=2000 (default)
 */
import os from "node:os";
import * as webhookRoute from "../../app/api/webhooks/messaging/[channelToken]/route";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { createTenant } from "../../lib/admin/create-tenant";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { createMessagingChannel } from "../../lib/messaging/channels";
import { processMessagingEvents } from "../../lib/messaging/inbound/process-events";
import { startFakeSmtp } from "../fakes/smtp-server";
import { percentiles, scratchDatabase } from "./http-load";

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const SENDERS = 10;
const PDF = Buffer.alloc(20_000, 7).toString("base64").replace(/.{76}/g, "$&\r\n");

function message(i: number): string {
  const from = `cliente${i % 300}@example.com`;
  const id = `<bench.${i}@example.com>`;
  const kind = i % 10;
  const headers = [
    `From: "Cliente ${i % 300}" <${from}>`,
    "To: vendas@bench.example",
    `Date: ${new Date(Date.now() - 3_600_000 + i).toUTCString()}`,
    `Message-ID: ${id}`,
  ];
  if (kind < 2 && i >= 300) {
    // An answer in the thread this correspondent started 300 messages earlier.
    headers.push(
      `Subject: Re: Imóvel ${i % 300}`,
      `In-Reply-To: <bench.${i - 300}@example.com>`,
      `References: <bench.${i % 300}@example.com> <bench.${i - 300}@example.com>`,
    );
  } else headers.push(`Subject: Imóvel ${i % 300}`);
  headers.push("MIME-Version: 1.0");
  if (kind === 8)
    return [
      ...headers,
      'Content-Type: text/html; charset="utf-8"',
      "",
      `<html><body><p>Olá, quero visitar o imóvel ${i}.</p><p>Obrigado!</p></body></html>`,
    ].join("\r\n");
  if (kind === 9) {
    return [
      ...headers,
      'Content-Type: multipart/mixed; boundary="bb"',
      "",
      "--bb",
      'Content-Type: text/plain; charset="utf-8"',
      "",
      `Segue a proposta ${i}.`,
      "--bb",
      'Content-Type: application/pdf; name="proposta.pdf"',
      "Content-Disposition: attachment; filename=proposta.pdf",
      "Content-Transfer-Encoding: base64",
      "",
      PDF,
      "--bb--",
      "",
    ].join("\r\n");
  }
  return [
    ...headers,
    'Content-Type: text/plain; charset="utf-8"',
    "Content-Transfer-Encoding: 8bit",
    "",
    `Bom dia! O imóvel ${i} ainda está disponível? Posso visitar no sábado.`,
    "",
    "-- ",
    `Cliente ${i % 300}`,
    "",
    "Em seg., 10 de nov. de 2026 às 09:12, Vendas <vendas@bench.example> escreveu:",
    "> Segue o anúncio.",
  ].join("\r\n");
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true"; // the SMTP server is on 127.0.0.1
  process.env.JOBS_RUNNER = "off";
  await scratchDatabase("crm_bench_email", false);
  await runMigrations();
  const db = await getDb();
  const smtp = await startFakeSmtp();
  const t = await createTenant({ db }, { name: "Bench E-mail", owner: { name: "Dona", email: "dona@bench-email.example.com" } });
  const ownerCtx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const origin = "http://localhost";
  const channel = await createMessagingChannel(ownerCtx, {
    origin,
    body: {
      name: "E-mail",
      transport: "email",
      address: "vendas@bench.example",
      smtp: { host: smtp.host, port: smtp.port, tls: "none", user: smtp.user, password: smtp.password },
    },
  });
  const token = channel.webhook!.url.split("/").pop()!;
  const secret = channel.webhook!.hmacSecret;
  const bodies = Array.from({ length: EMAILS }, (_, i) => message(i));
  const post = (body: string) =>
    webhookRoute.POST(
      new Request(`${origin}/api/webhooks/messaging/${token}`, {
        method: "POST",
        headers: { "content-type": "message/rfc822", "x-webhook-secret": secret },
        body,
      }),
      { params: Promise.resolve({ channelToken: token }) },
    );
  for (let i = 0; i < 20; i++) await post(message(EMAILS + i)); // warm-up (JIT, pool)

  let next = 0;
  const acks: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const s = performance.now();
        const res = await post(body);
        if (res.status !== 200) throw new Error(`webhook ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        acks.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const p = percentiles(acks);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(`Inbound e-mail (${EMAILS} MIME messages, ${SENDERS} concurrent senders):`);
  console.log(
    `  parsed and stored ${EMAILS} in ${seconds.toFixed(2)} s = ${(EMAILS / seconds).toFixed(0)} messages/s   ack p50 ${ms(p.p50)}  p95 ${ms(p.p95)}  p99 ${ms(p.p99)}`,
  );
  const p0 = performance.now();
  let processed = 0;
  for (;;) {
    const r = await processMessagingEvents(db, 200);
    processed += r.processed;
    if (r.claimed === 0) break;
  }
  const ps = (performance.now() - p0) / 1000;
  console.log(`  processed ${processed} into conversations and events in ${ps.toFixed(2)} s = ${(processed / ps).toFixed(0)} messages/s`);
  const load = os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(", ");
  console.log(`Load average after (1, 5, 15 min): ${load} on ${os.cpus().length} CPUs`);
  await smtp.close();
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
