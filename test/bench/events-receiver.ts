/**
 * The webhook receiver of `bench:events`, in a process of its own (as a real receiver is on
 * another machine; in the bench's process it would take the delivery worker's CPU). It verifies
 * every signature and checks what the spec promises: each event once, each tenant's events in
 * queue order. The bench asks for its figures over IPC.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "../../lib/event-delivery/verify";

const secret = process.env.BENCH_SECRET ?? "bench-secret";
const stats = { received: 0, firstAt: 0, lastAt: 0, duplicates: 0, outOfOrder: 0, badSignatures: 0 };
const seen = new Set<string>();
/** The position (`data.data.n`, 1, 2, …) of each tenant's last event received. */
const last = new Map<string, number>();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const now = Date.now();
    const body = Buffer.concat(chunks);
    if (!stats.firstAt) stats.firstAt = now;
    stats.lastAt = now;
    stats.received++;
    const signature = verifyWebhook({ secret, body, timestamp: req.headers["x-webhook-timestamp"], signature: req.headers["x-webhook-signature"] });
    if (!signature.ok) stats.badSignatures++;
    const event = JSON.parse(body.toString("utf8")) as { eventId: string; tenantId: string; data: { data: { n: number } } };
    if (seen.has(event.eventId)) stats.duplicates++;
    else {
      seen.add(event.eventId);
      const n = event.data.data.n;
      if (n !== (last.get(event.tenantId) ?? 0) + 1) stats.outOfOrder++;
      last.set(event.tenantId, n);
    }
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
});

server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("message", (m) => {
  if (m === "stats") {
    const cpu = process.cpuUsage();
    process.send?.({ stats: { ...stats, cpuMs: (cpu.user + cpu.system) / 1000 } });
  }
  if (m === "stop") server.close(() => process.exit(0));
});
process.on("disconnect", () => process.exit(0));
