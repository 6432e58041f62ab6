import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { headers: http.IncomingHttpHeaders; body: string; json: any; at: number };

/**
 * A real webhook receiver on 127.0.0.1. `respond` decides each answer (status, delay); by default
 * everything gets 200.
 */
export async function startReceiver(respond: (r: Received, n: number) => { status?: number; delayMs?: number; body?: string } = () => ({})) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const r: Received = { headers: req.headers, body, json: safeJson(body), at: Date.now() };
      received.push(r);
      const { status = 200, delayMs = 0, body: answer = "ok" } = respond(r, received.length);
      const send = () => {
        if (!res.destroyed) res.writeHead(status, { "content-type": "text/plain" }).end(answer);
      };
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function safeJson(s: string): any {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
