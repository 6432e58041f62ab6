/**
 * Redirects with private targets refused. Every public address is unreachable offline, so this file
 * makes one loopback address, 127.0.0.2, count as public (a vi.mock of the address policy that
 * changes nothing else): a "public" server there redirects to a listener on 127.0.0.1, and every
 * sink must refuse the second hop without connecting to it. The preview image and the geocoder
 * follow up to 3 redirects, each checked again; webhooks and gateways follow none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { imageData } from "../../../app/share-render/_share/og-image";
import { resetConfigForTests } from "../../../lib/config";
import { geocode } from "../../../lib/geo/geocode";
import { GatewayError, gatewayJson } from "../../../lib/messaging/providers/gateway-http";
import { OutboundError } from "../../../lib/outbound-fetch/outbound-error";
import { outboundRequest } from "../../../lib/outbound-fetch/outbound-request";
import { postWebhook } from "../../../lib/event-delivery/send-webhook";
import { fakeDns, production, startListener, type Listener } from "../../helpers/outbound";

const PUBLIC_STAND_IN = "127.0.0.2";
vi.mock("../../../lib/outbound-fetch/address-policy", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../lib/outbound-fetch/address-policy")>();
  return { ...real, addressRefusal: (ip: string, allow?: boolean) => (ip === "127.0.0.2" ? null : real.addressRefusal(ip, allow)) };
});

let target: Listener;
let front: Listener;
/** Where the front server sends each path: `/to?u=<url>` redirects there, `/chain/n` to `/chain/n+1`. */
beforeAll(async () => {
  target = await startListener();
  front = await startListener(PUBLIC_STAND_IN, (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname.startsWith("/to")) {
      res.writeHead(Number(u.searchParams.get("s") ?? 302), { location: u.searchParams.get("u")! }).end();
      return true;
    }
    // `/r/<origin, base64url>/rest`: redirects to that origin with the same rest (the geocoder appends its path).
    const r = /^\/r\/([A-Za-z0-9_-]+)(\/.*)$/.exec(u.pathname);
    if (r) {
      res.writeHead(302, { location: Buffer.from(r[1], "base64url").toString() + r[2] + u.search }).end();
      return true;
    }
    const chain = /^\/chain\/(\d+)/.exec(u.pathname);
    if (chain) {
      res.writeHead(302, { location: `/chain/${Number(chain[1]) + 1}` }).end();
      return true;
    }
    return false;
  });
});
afterAll(async () => {
  await target.close();
  await front.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfigForTests();
});

const via = (to: string, status = 302) => `${front.origin}/to?s=${status}&u=${encodeURIComponent(to)}`;

describe("a public address that redirects to a private one", () => {
  it("the preview image and the geocoder re-check each hop: zero connections to 127.0.0.1", async () => {
    production(false);
    fakeDns({ "rebind.test": ["127.0.0.1"] });
    const p = target.port;
    const origins = [`http://127.0.0.1:${p}`, `http://localhost:${p}`, `http://[::ffff:7f00:1]:${p}`, `http://rebind.test:${p}`];
    for (const origin of origins) {
      expect(await imageData(via(`${origin}/img/x.png`)), origin).toBeNull();
      // Two hops on the public server first, then the private one.
      const twice = via(via(`${origin}/img/x.png`, 307), 301);
      await expect(outboundRequest(twice, { purpose: "image", timeoutMs: 2000, maxBytes: 1000, maxRedirects: 3 })).rejects.toMatchObject({ kind: "refused" });
      vi.stubEnv("GEOCODER_URL", `${front.origin}/r/${Buffer.from(origin).toString("base64url")}`);
      resetConfigForTests();
      expect(await geocode({ city: "São Paulo" }), origin).toBeNull();
    }
    expect(target.connections).toBe(0);
    // The controls: the stand-in is reachable, and the geocoder's redirect is followed where allowed.
    expect(await imageData(via(`${front.origin}/img/ok.png`))).toMatch(/^data:image\/png;base64,/);
    production(true);
    expect(await geocode({ city: "São Paulo" })).toEqual({ latitude: -23.5, longitude: -46.6 });
    expect(target.requests.at(-1)).toMatch(/^\/search\?format=json/);
  });

  it("webhooks and gateways follow no redirect at all", async () => {
    production(false);
    const before = target.connections;
    const to = `http://127.0.0.1:${target.port}/hooks`;
    const sent = await postWebhook(via(to), {}, "{}", 2000);
    expect(sent).toMatchObject({ statusCode: 302, error: `redirect to ${to} not followed` });
    const gw = await gatewayJson("GET", via(to), {}, undefined, AbortSignal.timeout(2000)).catch((e) => e);
    expect(gw).toBeInstanceOf(GatewayError);
    expect(gw).toMatchObject({ kind: "http", status: 302 });
    expect(target.connections - before).toBe(0);
  });
});

describe("redirect rules", () => {
  it("at most 3 hops: the fourth redirect is the answer", async () => {
    const before = front.requests.length;
    const res = await outboundRequest(`${front.origin}/chain/0`, { purpose: "image", timeoutMs: 2000, maxBytes: 1000, maxRedirects: 3 });
    expect(res.status).toBe(302);
    expect(res.url).toBe(`${front.origin}/chain/3`);
    expect(front.requests.slice(before)).toEqual(["/chain/0", "/chain/1", "/chain/2", "/chain/3"]);
    // More than 3 asked is 3.
    const capped = await outboundRequest(`${front.origin}/chain/0`, { purpose: "image", timeoutMs: 2000, maxBytes: 1000, maxRedirects: 10 });
    expect(capped.url).toBe(`${front.origin}/chain/3`);
    expect(await imageData(`${front.origin}/chain/0`)).toBeNull();
  });

  it("only to http(s)", async () => {
    for (const to of ["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/"]) {
      const err = await outboundRequest(via(to), { purpose: "image", timeoutMs: 2000, maxBytes: 1000, maxRedirects: 3 }).catch((e) => e);
      expect(err, to).toBeInstanceOf(OutboundError);
      expect(err.kind, to).toBe("redirect");
    }
  });

  it("a 303 (and a 302 after a POST) continues as a GET without the body; credentials stay with their origin", async () => {
    const seen: { method?: string; auth?: string; type?: string }[] = [];
    const other = await startListener("127.0.0.1", (req, res) => {
      seen.push({ method: req.method, auth: req.headers.authorization, type: req.headers["content-type"] });
      res.writeHead(200).end("ok");
      return true;
    });
    try {
      for (const status of [303, 302]) {
        const res = await outboundRequest(via(`${other.origin}/done`, status), {
          purpose: "webhook",
          method: "POST",
          body: "{}",
          headers: { authorization: "Bearer s", "content-type": "application/json" },
          timeoutMs: 2000,
          maxBytes: 1000,
          maxRedirects: 1,
        });
        expect(res.status).toBe(200);
      }
      expect(seen).toEqual([{ method: "GET" }, { method: "GET" }]);
    } finally {
      await other.close();
    }
  });
});
