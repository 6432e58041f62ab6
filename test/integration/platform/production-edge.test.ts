/**
 * Issue #32's probe, replayed against the production build as operators run it: `npm start` with
 * two web processes and a jobs worker on PostgreSQL. Unit tests run unbundled; the bundle once
 * differed unseen (every rate limit fell back to per-process memory). Each request goes on a
 * connection of its own, so the cluster hands them to both web processes in turn.
 *
 * - D1: another spelling of a held host, or a name under the share domain, cannot be taken; every
 *   spelling of the host serves its holder.
 * - D3: limits hold across processes: 150 resolves give exactly 100 answers and 50 × 429; the
 *   sixth wrong share password is refused; the 1,001st messaging request in an hour is a 429.
 * - D5: with the database gone, site, share and pricing pages answer 503 with Retry-After and a
 *   page in the visitor's language, and serve again once it is back.
 * - D4: a database that never answers stops start-up within 15 s with one clear line.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEMPLATE_DB } from "../../setup/global-db";
import { json, productionSkipReason, send, startProduction, type ProductionServer } from "../../helpers/production-server";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";

const tpl = inject("dbTemplate");
const skip = productionSkipReason(tpl.kind);
if (skip) console.log(`production-edge: skipped, ${skip}`);

const OPERATOR = "prod-test-operator-token-0123";
let server: ProductionServer;
let proxy: TcpProxy;
let dbUrl: string;
let admin: postgres.Sql;
let dbName: string;
let alpha: { key: string; slug: string; tenantId: string };
let beta: { key: string; slug: string; tenantId: string };
let listingId: string;

async function tenant(name: string) {
  const res = await json(server.port, "POST", "/api/admin/tenants", OPERATOR, {
    name,
    owner: { name: "Dona", email: `dona-${randomBytes(3).toString("hex")}@example.com` },
  });
  expect(res.status).toBe(201);
  return { key: res.json.apiKey as string, slug: res.json.slug as string, tenantId: res.json.tenantId as string };
}

describe.skipIf(skip)("the production build, two web processes on PostgreSQL", () => {
  beforeAll(async () => {
    if (tpl.kind !== "postgres") return;
    dbName = `crm_prod_${randomBytes(5).toString("hex")}`;
    admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName} TEMPLATE ${TEMPLATE_DB}`);
    const real = new URL(tpl.url);
    proxy = await startTcpProxy(Number(real.port || 5432), real.hostname === "localhost" ? "127.0.0.1" : real.hostname);
    const url = new URL(tpl.url);
    url.pathname = `/${dbName}`;
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    dbUrl = url.toString();
    server = await startProduction({ DATABASE_URL: dbUrl, WEB_CONCURRENCY: "2" });
    expect(server.output()).toMatch(/2 web processes share the port/);
    alpha = await tenant("Alfa Imóveis");
    beta = await tenant("Beta Imóveis");
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await admin?.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
  }, 30_000);

  it("D1: another spelling of a held host or a name under the share domain is refused; every spelling serves the holder", async () => {
    const held = await json(server.port, "POST", "/api/v1/sites", alpha.key, { name: "Site da Alfa", domain: "alpha-site.localhost", published: true });
    expect(held.status).toBe(201);
    for (const domain of [`alpha-site.localhost:${server.port}`, "ALPHA-SITE.localhost", "alpha-site.localhost."]) {
      const res = await json(server.port, "POST", "/api/v1/sites", beta.key, { name: "Cópia", domain, published: true });
      expect(res.status, domain).toBe(409);
      expect(res.json.error.code, domain).toBe("domain_taken");
    }
    const share = await json(server.port, "POST", "/api/v1/sites", beta.key, { name: "Cópia", domain: `${alpha.slug}.share.localhost`, published: true });
    expect(share.status).toBe(400);
    expect(share.json.error.code).toBe("domain_reserved");
    expect((await json(server.port, "GET", "/api/v1/sites", beta.key)).json.items).toEqual([]);
    for (const host of [`alpha-site.localhost:${server.port}`, `ALPHA-SITE.localhost:${server.port}`, "alpha-site.localhost.", "alpha-site.localhost"]) {
      const page = await send(server.port, "GET", "/", { host });
      expect(page.status, host).toBe(200);
      expect(page.body, host).toContain("Site da Alfa");
    }
  });

  it("D3: 150 resolves from one address give exactly 100 answers and 50 × 429, whichever process answers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push((await send(server.port, "GET", "/api/sites/resolve?domain=alpha-site.localhost")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(statuses.slice(100).every((s) => s === 429)).toBe(true);
    // Counted in the shared table, not in each process's memory.
    const direct = postgres(dbUrl.replace(`127.0.0.1:${proxy.port}`, new URL(tpl.kind === "postgres" ? tpl.url : "postgres://x").host), {
      max: 1,
      onnotice: () => {},
    });
    try {
      const [row] = await direct`select points from rate_limits where key like 'sites:site:%'`;
      expect(row.points).toBeGreaterThanOrEqual(100);
    } finally {
      await direct.end();
    }
  });

  it("D3: the sixth wrong password of a share link within 15 minutes is refused (429)", async () => {
    const prop = await json(server.port, "POST", "/api/v1/real-estate/properties", alpha.key, {
      property: { title: "Apartamento", type: "apartment", bedrooms: 2, totalArea: "70.00" },
      location: { street: "Rua A", number: "1", neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title: "Apartamento em Pinheiros", type: "sale", price: "800000.00" }],
    });
    expect(prop.status).toBe(201);
    listingId = prop.json.listings[0].id as string;
    const link = await json(server.port, "POST", "/api/v1/share-links", alpha.key, { entityType: "listing", entityId: listingId, password: "segredo1" });
    expect(link.status).toBe(201);
    const attempt = (password: string) =>
      send(server.port, "POST", `/p/${link.json.token}`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `password=${password}` });
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) wrong.push((await attempt(`errada${i}`)).status);
    expect(wrong.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(wrong[5]).toBe(429);
    // Locked: even the right password waits for the window.
    expect((await attempt("segredo1")).status).toBe(429);
  }, 30_000);

  it("D3: the 1,001st messaging request of a key within an hour is a 429", async () => {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 1000) {
          next++;
          statuses.push((await json(server.port, "GET", "/api/v1/messaging/channels", beta.key)).status);
        }
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const over = await json(server.port, "GET", "/api/v1/messaging/channels", beta.key);
    expect(over.status).toBe(429);
    expect(over.headers["retry-after"]).toMatch(/^\d+$/);
  }, 120_000);

  it("D5: with the database gone, pages answer 503 'back soon' in the visitor's language, and serve again when it is back", async () => {
    const tool = await json(server.port, "GET", "/api/v1/settings/pricing-tool", alpha.key);
    expect(tool.status).toBe(200);
    const link = await json(server.port, "POST", "/api/v1/share-links", alpha.key, { entityType: "listing", entityId: listingId });
    expect(link.status).toBe(201);
    const token = link.json.token as string;
    await proxy.cut();
    try {
      await new Promise((r) => setTimeout(r, 1_100)); // the liveness answer of each process is at most a second old
      const site = `alpha-site.localhost:${server.port}`;
      const cases: [string, string | undefined, RegExp][] = [
        ["/", site, /Voltamos em instantes/],
        ["/en/imoveis", site, /right back/],
        ["/es", site, /Volvemos enseguida/],
        [`/c/${tool.json.token}`, undefined, /Voltamos em instantes/],
        [`/en/c/${tool.json.token}`, undefined, /right back/],
      ];
      cases.push([`/p/${token}`, undefined, /Voltamos em instantes/], [`/es/p/${token}`, undefined, /Volvemos enseguida/]);
      for (const [path, host, text] of cases) {
        const res = await send(server.port, "GET", path, { host });
        expect(res.status, path).toBe(503);
        expect(res.headers["retry-after"], path).toMatch(/^\d+$/);
        expect(res.headers["content-type"], path).toMatch(/text\/html/);
        expect(res.body, path).toMatch(text);
      }
      const api = await json(server.port, "GET", "/api/v1/crm/deals", alpha.key);
      expect(api.status).toBe(503);
    } finally {
      await proxy.restore();
    }
    let back = 0;
    for (let i = 0; i < 40 && back !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      back = (await send(server.port, "GET", "/", { host: `alpha-site.localhost:${server.port}` })).status;
    }
    expect(back).toBe(200);
  }, 60_000);
});

describe.skipIf(skip)("D4: start-up against a database that never answers", () => {
  it("stops within 15 s with one line naming the problem, instead of hanging", async () => {
    // Accepts connections and never says a word: a firewall or a hung server.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((ok) => silent.listen(0, "127.0.0.1", ok));
    const port = (silent.address() as net.AddressInfo).port;
    const started = Date.now();
    try {
      await expect(startProduction({ DATABASE_URL: `postgres://crm:pw@127.0.0.1:${port}/crm`, WEB_CONCURRENCY: "2" })).rejects.toThrow(
        /Server not started: Cannot connect to PostgreSQL at 127\.0\.0\.1:\d+/,
      );
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      sockets.forEach((s) => {
        s.destroy();
      });
      silent.close();
    }
  }, 30_000);
});
