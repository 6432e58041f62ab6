/**
 * Issue #38's layout, as `npm run cluster:local` brings it up: two independent nodes (`npm start`
 * each) behind nginx (round-robin, X-Forwarded-For, TRUST_PROXY=true), on PostgreSQL through
 * PgBouncer in transaction mode. What one node writes, the other serves at once (search, site
 * page, share page, chat stream, idempotency keys), site pages from each node's page cache included; limits hold across nodes; migrations ran once; a node killed
 * with SIGKILL mid-load loses no acknowledged write and nginx keeps serving from the other.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { missingPrograms, startCluster, type Cluster } from "../../../scripts/cluster-local/start";
import { freePort, json, productionSkipReason, send } from "../../helpers/production-server";

const tpl = inject("dbTemplate");
const skip = productionSkipReason(tpl.kind) ?? missingPrograms();
if (skip) console.log(`cluster-local: skipped, ${skip}`);

const OPERATOR = "cluster-test-operator-token-0123";
let cluster: Cluster;
let admin: postgres.Sql;
let dbName: string;
let dataDir: string;
let nginxPort: number;
let tenant: { key: string; slug: string; tenantId: string };
let siteHost: string;

const [a, b] = [0, 1];
const nodePort = (i: number) => cluster.nodes[i].port;

describe.skipIf(skip)("two nodes behind nginx, on PostgreSQL through PgBouncer (transaction mode)", () => {
  beforeAll(async () => {
    if (tpl.kind !== "postgres") return;
    dbName = `crm_cluster_${randomBytes(5).toString("hex")}`;
    admin = postgres(tpl.url, { max: 1, onnotice: () => {} });
    // An empty database: both nodes start together and must migrate it once between them.
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    const url = new URL(tpl.url);
    url.pathname = `/${dbName}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-cluster-data-"));
    nginxPort = await freePort();
    cluster = await startCluster({
      databaseUrl: url.toString(),
      port: nginxPort,
      nodePorts: [await freePort(), await freePort()],
      poolerPort: await freePort(),
      dataDir,
      nodeEnv: { OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" },
    });
    const res = await json(nginxPort, "POST", "/api/admin/tenants", OPERATOR, {
      name: "Nós Imóveis",
      owner: { name: "Dona", email: `dona-${randomBytes(3).toString("hex")}@example.com` },
    });
    expect(res.status).toBe(201);
    tenant = { key: res.json.apiKey, slug: res.json.slug, tenantId: res.json.tenantId };
    siteHost = `nos-${randomBytes(3).toString("hex")}.localhost`;
    const site = await json(nginxPort, "POST", "/api/v1/sites", tenant.key, { name: "Site dos Nós", domain: siteHost, published: true });
    expect(site.status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await admin?.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
  }, 60_000);

  it("migrated once though both nodes started together, and each node serves", async () => {
    const db = postgres(tpl.kind === "postgres" ? tpl.url.replace(/\/[^/]*$/, `/${dbName}`) : "", { max: 1, onnotice: () => {} });
    try {
      const rows = await db`select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash having count(*) > 1`;
      expect(rows).toEqual([]);
      const [{ n }] = await db`select count(*)::int as n from drizzle.__drizzle_migrations`;
      const journal = JSON.parse(fs.readFileSync("db/migrations/meta/_journal.json", "utf8")).entries.length;
      expect(n).toBe(journal);
    } finally {
      await db.end();
    }
    for (const i of [a, b]) expect((await send(nodePort(i), "GET", "/api/health/ready")).status).toBe(200);
  });

  it("a write on one node is served by the other at once: search, site page, share page", async () => {
    const word = `Nodal${randomBytes(3).toString("hex")}`;
    const prop = await json(nodePort(a), "POST", "/api/v1/real-estate/properties", tenant.key, {
      property: { title: `Apartamento ${word}`, type: "apartment", bedrooms: 2, totalArea: "70.00" },
      location: { street: "Rua A", number: "1", neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title: `Apartamento ${word} em Pinheiros`, type: "sale", price: "812345.00", stage: "active" }],
    });
    expect(prop.status).toBe(201);
    const listing = prop.json.listings[0];
    const link = await json(nodePort(a), "POST", "/api/v1/share-links", tenant.key, { entityType: "listing", entityId: listing.id });
    expect(link.status).toBe(201);

    const found = await json(nodePort(b), "GET", `/api/v1/real-estate/listings/search?query=${word}`, tenant.key);
    expect(found.status).toBe(200);
    expect(found.json.items.map((i: any) => [i.id, i.price])).toEqual([[listing.id, 812345]]);
    const page = await send(nodePort(b), "GET", `/imovel/${listing.listingCode}`, { host: siteHost });
    expect([200, 308]).toContain(page.status);
    const pageUrl = page.status === 308 ? new URL(page.headers.location!, "http://x").pathname : `/imovel/${listing.listingCode}`;
    expect((await send(nodePort(b), "GET", pageUrl, { host: siteHost })).body).toContain("812.345");
    expect((await send(nodePort(b), "GET", `/p/${link.json.token}`)).body).toContain("812.345");

    // The price changes on node B; node A's very next answers show it.
    const changed = await json(nodePort(b), "PATCH", `/api/v1/real-estate/listings/${listing.id}`, tenant.key, { price: "799000.00" });
    expect(changed.status).toBe(200);
    const again = await json(nodePort(a), "GET", `/api/v1/real-estate/listings/search?query=${word}`, tenant.key);
    expect(again.json.items.map((i: any) => i.price)).toEqual([799000]);
    const sitePage = (await send(nodePort(a), "GET", pageUrl, { host: siteHost })).body;
    expect(sitePage).toContain("799.000");
    expect(sitePage).not.toContain("812.345");
    const share = (await send(nodePort(a), "GET", `/p/${link.json.token}`)).body;
    expect(share).toContain("799.000");
    expect(share).not.toContain("812.345");
  }, 60_000);

  it("site pages come from each node's page cache, and a change reaches the very next page on both nodes, through nginx too", async () => {
    const word = `Cache${randomBytes(3).toString("hex")}`;
    const prop = await json(nginxPort, "POST", "/api/v1/real-estate/properties", tenant.key, {
      property: { title: `Casa ${word}`, type: "house", bedrooms: 3, totalArea: "120.00" },
      location: { street: "Rua B", number: "2", neighborhood: "Moema", city: "São Paulo", state: "SP" },
      listings: [{ title: `Casa ${word} em Moema`, type: "sale", price: "654321.00", stage: "active" }],
    });
    expect(prop.status).toBe(201);
    const listing = prop.json.listings[0];
    const first = await send(nodePort(a), "GET", `/imovel/${listing.listingCode}`, { host: siteHost });
    const pageUrl = first.status === 308 ? new URL(first.headers.location!, "http://x").pathname : `/imovel/${listing.listingCode}`;
    const via = [nodePort(a), nodePort(b), nginxPort, nginxPort];
    // Each node renders the page once and then answers it from its cache (nginx alternates between them).
    for (const port of via) await send(port, "GET", pageUrl, { host: siteHost });
    for (const port of [nodePort(a), nodePort(b)]) {
      const again = await send(port, "GET", pageUrl, { host: siteHost });
      expect([again.status, again.headers["x-page-cache"]]).toEqual([200, "hit"]);
      expect(again.body).toContain("654.321");
      await send(port, "GET", "/imoveis", { host: siteHost });
      const catalogue = await send(port, "GET", "/imoveis", { host: siteHost });
      expect([catalogue.headers["x-page-cache"], catalogue.body.includes(word)]).toEqual(["hit", true]);
    }

    // The price changes through nginx (either node); every next page, on both nodes and through nginx, shows it.
    const changed = await json(nginxPort, "PATCH", `/api/v1/real-estate/listings/${listing.id}`, tenant.key, { price: "643210.00" });
    expect(changed.status).toBe(200);
    for (const port of via) {
      const page = await send(port, "GET", pageUrl, { host: siteHost });
      expect(page.status).toBe(200);
      expect(page.body).toContain("643.210");
      expect(page.body).not.toContain("654.321");
    }

    // Unpublished through the other node: gone from both nodes' catalogues at once, its page a 404.
    const hidden = await json(nodePort(b), "PATCH", `/api/v1/real-estate/listings/${listing.id}`, tenant.key, { visibility: "private" });
    expect(hidden.status).toBe(200);
    for (const port of via) {
      expect((await send(port, "GET", "/imoveis", { host: siteHost })).body).not.toContain(word);
      expect((await send(port, "GET", pageUrl, { host: siteHost })).status).toBe(404);
    }
  }, 60_000);

  it("a chat stream on one node gets a reply made on the other at once; the reply's idempotency key holds on both", async () => {
    const channel = await json(nodePort(a), "POST", "/api/v1/settings/messaging-channels", tenant.key, { name: "Chat do site", transport: "web_chat" });
    expect(channel.status).toBe(201);
    const site = await json(nodePort(a), "POST", "/api/v1/sites", tenant.key, {
      name: "Site com chat",
      domain: `chat-${randomBytes(3).toString("hex")}.localhost`,
      published: true,
      chat: { channelId: channel.json.id },
    });
    expect(site.status).toBe(201);
    const siteId = site.json.id as string;
    const session = await json(nodePort(b), "POST", `/api/sites/${siteId}/chat/sessions`, null, { name: "Paulo" });
    expect(session.status).toBe(201);
    const token = session.json.sessionToken as string;
    const key = session.json.conversationKey as { channelId: string; chatId: string };
    const first = await json(
      nodePort(b),
      "POST",
      `/api/sites/${siteId}/chat/messages`,
      null,
      { text: "Bom dia", clientMessageId: "p1" },
      { authorization: `Bearer ${token}` },
    );
    expect(first.status).toBe(201);

    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${nodePort(b)}/api/sites/${siteId}/chat/stream`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const until = async (text: string, ms: number) => {
      const deadline = Date.now() + ms;
      while (!seen.includes(text) && Date.now() < deadline) {
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now())))]);
        if (!chunk || chunk.done) break;
        seen += decoder.decode(chunk.value, { stream: true });
      }
      return seen.includes(text);
    };
    try {
      expect(await until("Bom dia", 5000)).toBe(true);
      const started = Date.now();
      const body = { ...key, body: { kind: "text", text: "Bom dia, Paulo! Está disponível." }, idempotencyKey: "cluster-reply-1" };
      const reply = await json(nodePort(a), "POST", "/api/v1/messaging/reply", tenant.key, body);
      expect(reply.json).toMatchObject({ status: "sent" });
      expect(await until("Bom dia, Paulo!", 3000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
      // The same key on the other node answers the same message and sends nothing new.
      const again = await json(nodePort(b), "POST", "/api/v1/messaging/reply", tenant.key, body);
      expect(again.json.messageId).toBe(reply.json.messageId);
      const history = await json(nodePort(b), "GET", `/api/sites/${siteId}/chat/messages`, null, undefined, { authorization: `Bearer ${token}` });
      expect(history.json.messages.map((m: { direction: string }) => m.direction)).toEqual(["inbound", "outbound"]);
    } finally {
      abort.abort();
      await reader.cancel().catch(() => {});
    }
  }, 60_000);

  it("limits hold across nodes: through nginx, 150 resolves from one address give exactly 100 answers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push((await send(nginxPort, "GET", `/api/sites/resolve?domain=${siteHost}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.slice(100).every((s) => s === 429)).toBe(true);
    // Another client address (X-Forwarded-For set by nginx, trusted by the nodes) has its own budget.
    const other = await send(nginxPort, "GET", `/api/sites/resolve?domain=${siteHost}`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(other.status).toBe(200);
  }, 60_000);

  it("metrics are scraped through nginx, each answer naming the node that gave it", async () => {
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await send(nginxPort, "GET", "/api/metrics", { headers: { authorization: `Bearer ${OPERATOR}` } });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/plain/);
      expect(res.body).toMatch(/^# HELP /m);
      for (const m of res.body.matchAll(/node="([^"]+)"/g)) names.add(m[1]);
    }
    expect([...names].sort()).toEqual(["node-a", "node-b"]);
    expect((await send(nginxPort, "GET", "/api/metrics")).status).toBe(401);
  }, 30_000);

  it("a node killed with SIGKILL mid-load loses no acknowledged write, and nginx keeps serving from the other", async () => {
    const acked: string[] = [];
    const failed: number[] = [];
    let killedAt = -1;
    const post = (i: number) =>
      json(nginxPort, "POST", "/api/v1/real-estate/properties", tenant.key, {
        property: { title: `Casa ${i}`, type: "house", bedrooms: 3, totalArea: "120.00" },
        location: { street: "Rua B", number: String(i), neighborhood: "Moema", city: "São Paulo", state: "SP" },
        listings: [{ title: `Casa ${i} em Moema`, type: "sale", price: "900000.00" }],
      }).catch(() => ({ status: 0, json: null }) as const);
    let next = 0;
    const total = 240;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < total) {
          const i = next++;
          if (i === 80) {
            killedAt = Date.now();
            cluster.nodes[a].kill("SIGKILL");
          }
          const res = await post(i);
          if (res.status === 201) acked.push(res.json.property.id);
          else failed.push(res.status);
        }
      }),
    );
    expect(killedAt).toBeGreaterThan(0);
    // A request node A held when it died fails (nginx never resends a POST); the rest go to node B.
    expect(failed.length).toBeLessThanOrEqual(6);
    expect(failed.every((s) => s === 502 || s === 0)).toBe(true);
    expect(acked.length).toBeGreaterThanOrEqual(total - 6);
    const db = postgres(tpl.kind === "postgres" ? tpl.url.replace(/\/[^/]*$/, `/${dbName}`) : "", { max: 1, onnotice: () => {} });
    try {
      const rows = await db`select id from properties where id = any(${acked}::uuid[])`;
      expect(rows.length).toBe(acked.length);
    } finally {
      await db.end();
    }
    // Afterwards every request is served (by node B).
    for (let i = 0; i < 10; i++) expect((await send(nginxPort, "GET", "/api/health/ready")).status).toBe(200);
  }, 120_000);
});
