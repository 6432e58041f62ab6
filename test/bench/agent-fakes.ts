/**
 * The outside world of the agents benchmarks in a process of its own: the OpenAI-compatible model
 * (answering each call after `BENCH_MODEL_DELAY_MS`, with the benches' script: first call asks
 * for `reply`, the call after the tool result ends the loop), `BENCH_GATEWAYS` WAHA-like gateways
 * and a webhook receiver. In production these are other machines; in the bench's process they took
 * its event loop and CPU (JSON of every model call, history reads, sends), and their timers fired
 * late under load, which the benches counted as the agents' overhead and as delay to the other
 * work. Driven over IPC by `agent-fakes-client.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { startFakeModel } from "../fakes/model-server";
import { type FakeWaha, startFakeWaha } from "../fakes/waha-gateway";

/** Wall-clock milliseconds comparable across processes of one machine. */
const now = () => performance.timeOrigin + performance.now();

async function main() {
  const model = await startFakeModel({ delayMs: Number(process.env.BENCH_MODEL_DELAY_MS ?? 200) });
  model.setScript((req) =>
    req.messages.some((m) => m.role === "tool")
      ? { text: "", usage: { inputTokens: 300, outputTokens: 2 } }
      : {
          toolCalls: [{ name: "reply", arguments: { text: "Olá! Obrigado pelo contato. Você procura para comprar ou alugar?" } }],
          usage: { inputTokens: 280, outputTokens: 25 },
        },
  );
  const gateways: FakeWaha[] = [];
  for (let i = 0; i < Number(process.env.BENCH_GATEWAYS ?? 1); i++) {
    // Node's default keep-alive, as a real gateway answers: at the fake's 1 s, undici opened a new
    // connection for every history read and send, CPU that production does not spend.
    const gw = await startFakeWaha({ keepAliveMs: 5000 });
    const index = i;
    const push = gw.state.sent.push.bind(gw.state.sent);
    // Each reply as the gateway gets it, with its time: the first-reply latency ends there.
    gw.state.sent.push = (...items: { chatId: string; text: string }[]) => {
      for (const s of items) process.send?.({ sent: { gateway: index, chatId: s.chatId, at: now() } });
      return push(...items);
    };
    gateways.push(gw);
  }
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));

  process.on(
    "message",
    (m: { id: number; inbound?: { gateway: number; secret: string; chatId: string; text: string; extra?: object }; received?: true; cpu?: true }) => {
      if (m.inbound) {
        const { gateway, secret, chatId, text, extra } = m.inbound;
        const wh = gateways[gateway].inbound(secret, chatId, text, extra);
        process.send?.({ id: m.id, body: wh.body, headers: wh.headers });
      } else if (m.received) process.send?.({ id: m.id, count: received });
      else if (m.cpu) {
        const c = process.cpuUsage();
        process.send?.({ id: m.id, ms: (c.user + c.system) / 1000 });
      }
    },
  );
  process.on("disconnect", () => process.exit(0));
  process.send?.({
    ready: {
      modelUrl: model.url,
      hookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      gateways: gateways.map((g) => ({ url: g.url, apiKey: g.apiKey, session: g.session })),
    },
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
