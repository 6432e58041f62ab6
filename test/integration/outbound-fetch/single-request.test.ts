/**
 * singleRequest (webhook delivery's request): the same guard and caps as outboundRequest, on
 * undici's dispatcher directly, against real servers on 127.0.0.1.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { OutboundError } from "../../../lib/outbound-fetch/outbound-error";
import { singleRequest } from "../../../lib/outbound-fetch/single-request";
import { fakeDns, production, startListener, type Listener } from "../../helpers/outbound";

let l: Listener;
beforeAll(async () => {
  l = await startListener("127.0.0.1", (req, res) => {
    if (req.url === "/big") {
      res.writeHead(200).end(Buffer.alloc(64 * 1024, 97));
      return true;
    }
    if (req.url === "/drip") {
      res.writeHead(200);
      res.write("a");
      return true; // the body never ends
    }
    if (req.url === "/mute") return true; // no answer at all
    if (req.url === "/moved") {
      res.writeHead(307, { location: "http://169.254.169.254/" }).end();
      return true;
    }
    return false;
  });
});
afterAll(() => l.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfigForTests();
});

const post = (path: string, o: Partial<Parameters<typeof singleRequest>[1]> = {}) =>
  singleRequest(`${l.origin}${path}`, { purpose: "webhook", method: "POST", headers: {}, body: "{}", timeoutMs: 2000, maxBytes: 1000, ...o });

describe("singleRequest", () => {
  it("sends the body and headers and answers status, headers and body, on one kept-alive connection", async () => {
    // A receiver of its own: Node's default keep-alive (5 s), which undici trusts for reuse.
    const bodies: string[] = [];
    let connections = 0;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString());
        res.writeHead(201, { "x-seen": String(req.headers["x-test"]) }).end("stored");
      });
    });
    server.on("connection", () => connections++);
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
    try {
      for (let n = 1; n <= 10; n++) {
        const res = await singleRequest(url, {
          purpose: "webhook",
          method: "POST",
          headers: { "x-test": `t${n}`, "content-type": "application/json" },
          body: `{"n":${n}}`,
          timeoutMs: 2000,
          maxBytes: 1000,
        });
        expect(res).toMatchObject({ status: 201, truncated: false, url });
        expect(res.headers["x-seen"]).toBe(`t${n}`);
        expect(res.body.toString()).toBe("stored");
      }
      expect(bodies).toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${i + 1}}`));
      // A request may open a second connection while the first is being handed back, no more.
      expect(connections).toBeLessThanOrEqual(2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("keeps the first maxBytes of a larger answer", async () => {
    const cut = await post("/big");
    expect(cut.body).toHaveLength(1000);
    expect(cut.truncated).toBe(true);
    expect(cut.status).toBe(200);
  });

  it("caps the whole exchange's time: no answer, or a body that never ends", async () => {
    for (const path of ["/mute", "/drip"]) {
      const started = Date.now();
      const err = await post(path, { timeoutMs: 300 }).catch((e) => e);
      expect(err, path).toBeInstanceOf(OutboundError);
      expect(err.kind).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(1500);
    }
  });

  it("answers a redirect as it came, without following it", async () => {
    const before = l.requests.length;
    const res = await post("/moved");
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe("http://169.254.169.254/");
    expect(l.requests.length - before).toBe(1);
  });

  it("refuses, without connecting, what the guard refuses: literals, localhost and names that resolve inside", async () => {
    production(false);
    fakeDns({ "inside.test": ["10.0.0.5"], "nx.test": null });
    const before = l.connections;
    for (const url of [`${l.origin}/`, `http://localhost:${l.port}/`, `http://inside.test:${l.port}/`]) {
      await expect(singleRequest(url, { purpose: "webhook", method: "POST", headers: {}, timeoutMs: 1000, maxBytes: 10 }), url).rejects.toMatchObject({
        kind: "refused",
      });
    }
    await expect(singleRequest("http://nx.test/", { purpose: "webhook", method: "POST", headers: {}, timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({
      kind: "network",
      code: "ENOTFOUND",
    });
    expect(l.connections).toBe(before);
  });

  it("refuses what is not an http(s) URL", async () => {
    for (const url of ["not a url", "file:///etc/passwd"]) {
      await expect(singleRequest(url, { purpose: "webhook", method: "POST", headers: {}, timeoutMs: 1000, maxBytes: 10 }), url).rejects.toMatchObject({
        kind: "invalid_url",
      });
    }
  });
});
