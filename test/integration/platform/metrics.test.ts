/**
 * `GET /api/metrics`: Prometheus text for this process, read with the operator token or
 * METRICS_TOKEN (401 otherwise). Requests through our server's listener are counted by route group
 * (never by raw path), rate-limit refusals by policy, and the database's queues are read at scrape.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { consume } from "../../../lib/rate-limit/limiter";
import { requestListener } from "../../../lib/server/web-server";
import * as searchRoute from "../../../app/api/v1/real-estate/listings/search/route";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

process.env.METRICS_TOKEN = "metrics-token-for-the-scraper-0123";
process.env.NODE_NAME = "node-a";
const OPERATOR = "test-operator-token-0123456789";

let server: http.Server;
let base: string;
beforeAll(async () => {
  // Our listener in front of a stand-in for Next.js: what it counts is what every request passes.
  server = http.createServer(requestListener((req, res) => res.writeHead(req.url?.includes("missing") ? 404 : 200).end("ok")));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

async function scrape(token = OPERATOR): Promise<string> {
  const { GET } = await import("../../../app/api/metrics/route");
  const res = await GET(new Request("http://localhost/api/metrics", { headers: { authorization: `Bearer ${token}` } }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series, by its exact label set as prom-client prints it (labels in creation order). */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("GET /api/metrics", () => {
  it("refuses a scrape without a token or with a wrong one", async () => {
    const { GET } = await import("../../../app/api/metrics/route");
    const none = await GET(new Request("http://localhost/api/metrics"));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    const wrong = await GET(new Request("http://localhost/api/metrics", { headers: { authorization: "Bearer not-the-token-at-all-000" } }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("crm_http_requests_total");
  });

  it("counts requests by route group, rate-limit refusals by policy, and reads the queues", async () => {
    const labels = (group: string, status: string) => `{group="${group}",method="GET",status="${status}",node="node-a",pid="${process.pid}"}`;
    const before = await scrape("metrics-token-for-the-scraper-0123");
    const paths = ["/api/v1/crm/leads?page=2", "/api/v1/real-estate/listings/abc", "/api/sites/resolve", "/p/tok-123", "/imovel/lote-12", "/en/missing"];
    for (const p of paths) expect((await fetch(base + p)).status).toBeGreaterThan(0);
    const policy = { name: "metrics_test", points: 1, windowSeconds: 60, keyPrefix: "metrics-test" };
    const db = await getDb();
    expect((await consume(db, policy, "k"))?.allowed).toBe(true);
    expect((await consume(db, policy, "k"))?.allowed).toBe(false);
    expect((await consume(db, policy, "k"))?.allowed).toBe(false);

    const after = await scrape();
    const moved = (series: string) => value(after, series) - value(before, series);
    expect(moved(`crm_http_requests_total${labels("api_v1", "2xx")}`)).toBe(2);
    expect(moved(`crm_http_requests_total${labels("api_sites", "2xx")}`)).toBe(1);
    expect(moved(`crm_http_requests_total${labels("share_pages", "2xx")}`)).toBe(1);
    expect(moved(`crm_http_requests_total${labels("site_pages", "2xx")}`)).toBe(1);
    expect(moved(`crm_http_requests_total${labels("site_pages", "4xx")}`)).toBe(1);
    expect(moved(`crm_http_request_duration_seconds_count{node="node-a",pid="${process.pid}",group="api_v1"}`)).toBe(2);
    expect(moved(`crm_rate_limit_refusals_total{policy="metrics_test",node="node-a",pid="${process.pid}"}`)).toBe(2);
    // No raw path or token ever becomes a label.
    expect(after).not.toContain("tok-123");
    expect(after).not.toContain("lote-12");
    // Read from the database at the scrape: an empty queue, every lead status present.
    expect(value(after, `crm_event_deliveries_pending{node="node-a",pid="${process.pid}"}`)).toBe(0);
    expect(after).toContain(`crm_inbound_leads{status="received",node="node-a",pid="${process.pid}"} 0`);
    expect(after).toContain("# TYPE crm_job_runs_total counter");
  });

  it("times every listing search, labelled by the engine that answered", async () => {
    const t = await makeTenant();
    const count = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("crm_search_duration_seconds_count{"))
        .reduce((sum, l) => sum + Number(l.split(" ")[1]), 0);
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      const res = await call(searchRoute.GET, "GET", "/api/v1/real-estate/listings/search", { key: t.key, query: { query: "casa" } });
      expect(res.status).toBe(200);
    }
    const after = await scrape();
    expect(count(after) - count(before)).toBe(3);
    expect(after).toMatch(/^crm_search_duration_seconds_bucket\{[^}]*node="node-a"[^}]*engine="(postgres|typesense)"/m);
  });
});
