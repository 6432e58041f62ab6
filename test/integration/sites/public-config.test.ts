import { afterEach, describe, expect, it, vi } from "vitest";
import * as publicConfigRoute from "../../../app/api/sites/[siteId]/public-config/route";
import * as resolveRoute from "../../../app/api/sites/resolve/route";
import * as cdnResolveRoute from "../../../app/site/api/sites/resolve/route";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
/** Each test calls from its own address, so rate limits of one test do not reach another. */
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.0.${Math.floor(++ip / 250)}.${ip % 250}` });

afterEach(() => vi.useRealTimers());

describe("GET /api/sites/resolve and public-config", () => {
  it("resolves a published site by domain or id into the spec's configuration, also at /site/api/sites/resolve", async () => {
    const t = await makeTenant();
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { listingLanguages: ["pt-BR", "es"] } });
    const site = await makeSite(t, { metaPixel: { pixelId: "1234567", events: { viewContent: true, search: true, lead: false } } });
    const headers = from();
    const byDomain = await call(resolveRoute.GET, "GET", "/api/sites/resolve", { query: { domain: site.domain.toUpperCase() }, headers });
    expect(byDomain.status).toBe(200);
    expect(Object.keys(byDomain.body).sort()).toEqual([
      "cachedAt",
      "configuration",
      "domain",
      "id",
      "listingCriteria",
      "metaPixel",
      "name",
      "tenantConfig",
      "tenantId",
    ]);
    expect(byDomain.body).toMatchObject({ id: site.id, domain: site.domain, tenantId: t.tenantId, metaPixel: { pixelId: "1234567" } });
    expect(byDomain.body.tenantConfig.supportedLanguages).toEqual(["pt-BR", "es"]);
    expect(Object.keys(byDomain.body.tenantConfig).sort()).toEqual([
      "buildingFeatures",
      "primaryMarketEnabled",
      "propertyFeatures",
      "propertyTypes",
      "supportedLanguages",
    ]);
    expect(Math.abs(byDomain.body.cachedAt - Date.now())).toBeLessThan(10_000);
    const byId = await call(cdnResolveRoute.GET, "GET", "/site/api/sites/resolve", { query: { siteId: site.id }, headers });
    expect(byId.body.id).toBe(site.id);
    const config = await call(publicConfigRoute.GET, "GET", "/x", { params: { siteId: site.id }, headers });
    expect(config.body.tenantConfig).toEqual(byDomain.body.tenantConfig);
  });

  it("answers the spec's errors: Invalid parameter, Site not found, Site not published", async () => {
    const t = await makeTenant();
    const headers = from();
    const draft = await makeSite(t, { published: false });
    const inactive = await makeSite(t, { active: false });
    const cases: [Record<string, string>, number, string][] = [
      [{}, 400, "Invalid parameter"],
      [{ siteId: "not-a-uuid" }, 400, "Invalid parameter"],
      [{ domain: "nobody.example.com" }, 404, "Site not found"],
      [{ siteId: "00000000-0000-4000-8000-000000000000" }, 404, "Site not found"],
      [{ siteId: inactive.id }, 404, "Site not found"],
      [{ domain: inactive.domain }, 404, "Site not found"],
      [{ domain: draft.domain }, 404, "Site not published"],
    ];
    for (const [query, status, message] of cases) {
      const res = await call(resolveRoute.GET, "GET", "/api/sites/resolve", { query, headers });
      expect([res.status, res.body.error.message], JSON.stringify(query)).toEqual([status, message]);
    }
    expect((await call(resolveRoute.GET, "GET", "/x", { query: { domain: "a.com", extra: "1" }, headers })).status).toBe(400);
    // public-config serves an unpublished site (previews) but not an inactive one.
    expect((await call(publicConfigRoute.GET, "GET", "/x", { params: { siteId: draft.id }, headers })).status).toBe(200);
    expect((await call(publicConfigRoute.GET, "GET", "/x", { params: { siteId: inactive.id }, headers })).body.error.message).toBe("Site not found");
  });

  it("sees a change to the site at once after the tenant API commits it", async () => {
    const t = await makeTenant();
    const site = await makeSite(t);
    const headers = from();
    expect((await call(resolveRoute.GET, "GET", "/x", { query: { siteId: site.id }, headers })).status).toBe(200);
    await call(siteRoute.PATCH, "PATCH", "/x", { key: t.key, params: { siteId: site.id }, body: { published: false } });
    const { settleAfterCommit } = await import("../../../db/transaction");
    await settleAfterCommit();
    expect((await call(resolveRoute.GET, "GET", "/x", { query: { siteId: site.id }, headers })).body.error.message).toBe("Site not published");
  });

  it("carries CORS and cache headers on answers and errors, and answers the preflight with 204", async () => {
    const t = await makeTenant();
    const site = await makeSite(t);
    const headers = from();
    for (const res of [
      await call(resolveRoute.GET, "GET", "/x", { query: { siteId: site.id }, headers }),
      await call(resolveRoute.GET, "GET", "/x", { query: {}, headers }),
      await call(publicConfigRoute.GET, "GET", "/x", { params: { siteId: "nope" }, headers }),
    ]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
      expect(res.headers.get("access-control-allow-headers")).toBe("Content-Type, Authorization");
      expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    }
    const pre = await resolveRoute.OPTIONS();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(await pre.text()).toBe("");
  });

  it("limits each client address to 100 requests a minute (429 with Retry-After and RateLimit headers), then resets", async () => {
    const t = await makeTenant();
    const site = await makeSite(t);
    const headers = from();
    const other = from();
    const get = (h: Record<string, string>) => call(resolveRoute.GET, "GET", "/x", { query: { siteId: site.id }, headers: h });
    for (let i = 1; i <= 100; i++) {
      const res = await get(headers);
      expect(res.status).toBe(200);
      if (i === 100) expect(res.headers.get("ratelimit")).toMatch(/^"site";r=0;t=\d+$/);
    }
    const limited = await get(headers);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-policy")).toBe('"site";q=100;w=60');
    expect(limited.headers.get("cache-control")).toBe("no-store");
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect((await get(other)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    expect((await get(headers)).status).toBe(200);
  });
});
