/**
 * outboundRequest's caps and its lookup, against real servers on 127.0.0.1 (private targets are
 * allowed in tests, as in development).
 */
import dns from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { OutboundError } from "../../../lib/outbound-fetch/outbound-error";
import { outboundRequest } from "../../../lib/outbound-fetch/outbound-request";
import { fakeDns, production, startListener, type Listener } from "../../helpers/outbound";

let l: Listener;
beforeAll(async () => {
  l = await startListener("127.0.0.1", (req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(Buffer.alloc(64 * 1024, 97));
      return true;
    }
    if (req.url === "/slow") {
      res.writeHead(200);
      res.write("a");
      return true; // never ends
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

const get = (path: string, o: Partial<Parameters<typeof outboundRequest>[1]> = {}) =>
  outboundRequest(`${l.origin}${path}`, { purpose: "image", timeoutMs: 2000, maxBytes: 1000, ...o });

describe("outboundRequest", () => {
  it("fails an answer past maxBytes, or keeps its first maxBytes when asked to truncate", async () => {
    await expect(get("/big")).rejects.toMatchObject({ kind: "too_large", status: 200 });
    const cut = await get("/big", { overLimit: "truncate" });
    expect(cut.body).toHaveLength(1000);
    expect(cut.truncated).toBe(true);
    const whole = await get("/big", { maxBytes: 64 * 1024 });
    expect(whole.truncated).toBe(false);
    expect(whole.body).toHaveLength(64 * 1024);
  });

  it("caps the whole exchange's time, the body included", async () => {
    const started = Date.now();
    const err = await get("/slow", { timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("stops at the caller's signal too", async () => {
    const err = await get("/slow", { timeoutMs: 5000, signal: AbortSignal.timeout(200) }).catch((e) => e);
    expect(err).toMatchObject({ kind: "timeout" });
  });

  it("refuses what is not an http(s) URL before any connection", async () => {
    for (const url of ["not a url", "file:///etc/passwd", "ftp://example.com/"]) {
      await expect(outboundRequest(url, { purpose: "image", timeoutMs: 1000, maxBytes: 10 }), url).rejects.toMatchObject({ kind: "invalid_url" });
    }
  });

  it("connects to the address its lookup checked, with one lookup per connection", async () => {
    // The name exists only in the stubbed lookup: reaching the listener means the socket used its answer.
    fakeDns({ "only-in-the-guard.test": ["127.0.0.1"] });
    const res = await outboundRequest(`http://only-in-the-guard.test:${l.port}/once`, { purpose: "geocoder", timeoutMs: 2000, maxBytes: 1000 });
    expect(res.status).toBe(200);
    expect(l.requests).toContain("/once");
    expect(vi.mocked(dns.lookup).mock.calls.filter((c) => c[0] === "only-in-the-guard.test")).toHaveLength(1);
  });

  it("refuses a name when any of its addresses is non-public, before connecting", async () => {
    production(false);
    fakeDns({ "half.test": ["8.8.8.8", "10.0.0.5"], "meta.test": ["169.254.169.254"], "nx.test": null });
    await expect(outboundRequest("http://half.test/", { purpose: "image", timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({
      kind: "refused",
      message: "EPRIVATEADDRESS: refused: half.test resolves to a non-public address (private)",
    });
    await expect(outboundRequest("http://meta.test/", { purpose: "image", timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({
      message: /169\.254\.169\.254 \(cloud metadata\)/,
    });
    await expect(outboundRequest("http://nx.test/", { purpose: "image", timeoutMs: 1000, maxBytes: 10 })).rejects.toMatchObject({
      kind: "network",
      code: "ENOTFOUND",
    });
  });

  it("refuses the cloud metadata services even where private targets are allowed", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://[::ffff:a9fe:a9fe]/"]) {
      await expect(outboundRequest(url, { purpose: "image", timeoutMs: 1000, maxBytes: 10 }), url).rejects.toMatchObject({ kind: "refused" });
    }
  });
});
