/**
 * The lead webhook on the server's direct lane (lib/inbound/lead-intake-lane.ts), as `npm start`
 * serves it: a real Node HTTP server with the lane installed, whose own listener stands for
 * Next.js. The lane answers lead posts as the route does (same function, same bytes), refuses
 * oversized bodies without reading them to the end, and leaves every other request to the
 * listener behind it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import { getDb } from "../../../db/client";
import { deals, inboundLeads } from "../../../db/schema";
import { requestListener } from "../../../lib/server/web-server";
import { inFlightRequests, resetLifecycleForTests, startDraining } from "../../../lib/server/lifecycle";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

/** What the listener behind the lane (Next.js in production) answers: the lane did not take the request. */
const NEXT = 299;
let server: http.Server;
let base: string;
let t: TestTenant;
let channel: { id: string; pathToken: string };

beforeAll(async () => {
  // Our server's own listener, with a stand-in for Next.js behind it.
  server = http.createServer(
    requestListener((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(NEXT, { "content-type": "text/plain" }).end("next"));
    }),
  );
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await makeTenant();
  const broker = await makeMember(t, "broker");
  const created = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Portal", kind: "portal", queue: [broker.userId] } });
  expect(created.status).toBe(201);
  channel = created.body;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
});

/** The route itself, called in-process with a `Request`, as Next.js would. */
const viaRouteCall = (token: string, opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) =>
  call((req) => webhookRoute.POST(req, { params: Promise.resolve({ pathToken: token }) }), "POST", `/api/webhooks/channels/${token}`, opts);

const leadRows = async () => (await getDb()).select().from(inboundLeads).where(eq(inboundLeads.channelId, channel.id));

function lanePost(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

/** A request through a raw socket, for bodies fetch cannot send (chunked, without Content-Length). */
function chunked(path: string, chunks: Buffer[]): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = http.request(
      { host: "127.0.0.1", port, path, method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      },
    );
    req.on("error", reject);
    // The server may answer and close before the last chunks are written: that is the point.
    req.on("socket", (s) => s.on("error", () => {}));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe("the lead intake's direct lane", () => {
  it("stores a lead and answers 202 like the route, with a request id and no-store", async () => {
    const res = await lanePost(`/api/webhooks/channels/${channel.pathToken}`, JSON.stringify({ name: "Ana", phone: "11 98888-7777", originLeadId: "lane-1" }), {
      "x-forwarded-for": "203.0.113.7",
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, accepted: true });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const [row] = (await leadRows()).filter((r) => r.originLeadId === "lane-1");
    expect(row.rawBody).toContain('"Ana"');
    expect(row.headers).toMatchObject({ "content-type": "application/json", "x-forwarded-for": "203.0.113.7" });
    // A repeat is the same answer the route gives for it, with nothing stored twice.
    const again = await lanePost(`/api/webhooks/channels/${channel.pathToken}`, JSON.stringify({ name: "Ana", originLeadId: "lane-1" }));
    const viaRoute = await viaRouteCall(channel.pathToken, { body: { name: "Ana", originLeadId: "lane-1" } });
    expect(again.status).toBe(viaRoute.status);
    expect(await again.json()).toEqual(viaRoute.body);
    expect((await leadRows()).filter((r) => r.originLeadId === "lane-1")).toHaveLength(1);
  });

  it("keeps the socket's address as the lead's X-Forwarded-For when no proxy sent one, as Next.js does", async () => {
    expect((await lanePost(`/api/webhooks/channels/${channel.pathToken}`, JSON.stringify({ name: "Direct", originLeadId: "lane-xff" }))).status).toBe(202);
    const [row] = (await leadRows()).filter((r) => r.originLeadId === "lane-xff");
    expect((row.headers as Record<string, string>)["x-forwarded-for"]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("counts a post as in flight from its first byte, so a graceful shutdown waits for a slow upload", async () => {
    const { port } = server.address() as AddressInfo;
    const body = JSON.stringify({ name: "Slow upload", originLeadId: "lane-slow" });
    let answered: (status: number) => void;
    const status = new Promise<number>((ok) => (answered = ok));
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: `/api/webhooks/channels/${channel.pathToken}`,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        answered(res.statusCode ?? 0);
      },
    );
    req.write(body.slice(0, 10));
    await expect.poll(() => inFlightRequests()).toBe(1);
    req.end(body.slice(10));
    expect(await status).toBe(202);
    await expect.poll(() => inFlightRequests()).toBe(0);
  });

  it("stores nothing and counts nothing for a client that leaves in the middle of its body, and goes on serving", async () => {
    const { port } = server.address() as AddressInfo;
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: `/api/webhooks/channels/${channel.pathToken}`,
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "1000" },
    });
    req.on("error", () => {});
    req.write('{"name":"Gone","originLeadId":"lane-gone"');
    await expect.poll(() => inFlightRequests()).toBe(1);
    req.destroy();
    await expect.poll(() => inFlightRequests()).toBe(0);
    expect((await leadRows()).filter((r) => r.originLeadId === "lane-gone")).toHaveLength(0);
    expect((await lanePost(`/api/webhooks/channels/${channel.pathToken}`, JSON.stringify({ name: "Next one" }))).status).toBe(202);
  });

  it("answers sync=deal with the deal it made", async () => {
    const res = await lanePost(
      `/api/webhooks/channels/${channel.pathToken}?sync=deal`,
      JSON.stringify({ name: "Bia", phone: "11 97777-6666", originLeadId: "lane-sync" }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, status: "created" });
    const [deal] = await (await getDb()).select().from(deals).where(eq(deals.id, body.dealId));
    expect(deal.marketingChannelInstanceId).toBe(channel.id);
  });

  it("refuses what the route refuses, with the route's status and error, storing nothing", async () => {
    const before = (await leadRows()).length;
    const cases: { path: string; raw: string; headers?: Record<string, string> }[] = [
      { path: `/api/webhooks/channels/${channel.pathToken}`, raw: "{oops" },
      { path: `/api/webhooks/channels/${channel.pathToken}`, raw: "[1,2]" },
      { path: `/api/webhooks/channels/${channel.pathToken}`, raw: JSON.stringify({ name: "x", destination: "listing" }) },
      { path: `/api/webhooks/channels/${channel.pathToken}`, raw: JSON.stringify({ message: "x".repeat(300 * 1024) }) },
      { path: "/api/webhooks/channels/chnl_doesnotexistdoesnotexist", raw: "{}" },
    ];
    for (const c of cases) {
      const token = c.path.split("/")[4];
      const viaLane = await lanePost(c.path, c.raw, c.headers);
      const viaRoute = await viaRouteCall(token, { rawBody: c.raw, headers: c.headers });
      expect([viaLane.status, c.raw.slice(0, 20)]).toEqual([viaRoute.status, c.raw.slice(0, 20)]);
      expect(viaLane.status).toBeGreaterThanOrEqual(400);
      expect((await viaLane.json()).error.code).toBe(viaRoute.body.error.code);
    }
    expect((await leadRows()).length).toBe(before);
  });

  it("stops reading a body sent in chunks once it passes 256 KB: 413, and the connection closes", async () => {
    const before = (await leadRows()).length;
    const piece = Buffer.alloc(64 * 1024, "a");
    const res = await chunked(`/api/webhooks/channels/${channel.pathToken}`, [
      Buffer.from('{"message":"'),
      piece,
      piece,
      piece,
      piece,
      piece,
      Buffer.from('"}'),
    ]);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
    expect(res.connection).toBe("close");
    // Just under the cap, in chunks, is a lead.
    const small = await chunked(`/api/webhooks/channels/${channel.pathToken}`, [
      Buffer.from('{"name":"Chunked",'),
      Buffer.from('"originLeadId":"lane-chunked"}'),
    ]);
    expect(small.status).toBe(202);
    expect((await leadRows()).length).toBe(before + 1);
  });

  it("takes a lead whatever its Host header says (one that makes no URL included)", async () => {
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: `/api/webhooks/channels/${channel.pathToken}`,
          method: "POST",
          headers: { host: "bad host name", "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ name: "Host", originLeadId: "lane-host" }));
    });
    expect(status).toBe(202);
    expect((await leadRows()).filter((r) => r.originLeadId === "lane-host")).toHaveLength(1);
  });

  it("leaves every other request to the listener behind it", async () => {
    const p = channel.pathToken;
    const others = [
      fetch(`${base}/api/webhooks/channels/${p}`), // GET: the route's 405
      fetch(`${base}/api/webhooks/channels/${p}/listings`),
      lanePost(`/api/webhooks/channels/${p}/buildings/import`, "{}"),
      lanePost(`/api/webhooks/channels/${p}/`, "{}"),
      lanePost(`/api/webhooks/channels/${p}%41`, "{}"),
      lanePost(`/api/webhooks/channels/not-a-token`, "{}"),
      lanePost(`/api/webhooks/payments/${p}`, "{}"),
      lanePost(`/x/api/webhooks/channels/${p}`, "{}"),
      lanePost(`//api/webhooks/channels/${p}`, "{}"),
      fetch(`${base}/api/webhooks/channels/${p}`, { method: "PUT", body: "{}" }),
      fetch(`${base}/api/webhooks/channels/${p}`, { method: "HEAD" }),
    ];
    for (const res of await Promise.all(others)) expect(res.status).toBe(NEXT);
  });

  it("answers 503 with Retry-After while the server drains, storing nothing", async () => {
    const before = (await leadRows()).length;
    startDraining();
    try {
      const res = await lanePost(`/api/webhooks/channels/${channel.pathToken}`, JSON.stringify({ name: "Late" }));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
    } finally {
      resetLifecycleForTests();
    }
    expect((await leadRows()).length).toBe(before);
  });
});
