/**
 * A listing with `priceVisibility: private` keeps its price from every reader outside its tenant:
 * partner agencies searching their networks, and public surfaces. The price is blank in the hit,
 * and no filter, sort or facet on it can narrow the price down (it acts as a missing value).
 * Runs the REST search route and the PostgreSQL engine on the real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as searchRoute from "../../../app/api/v1/real-estate/listings/search/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as joinRoute from "../../../app/api/v1/settings/networks/join/route";
import * as shareRoute from "../../../app/api/v1/settings/networks/[id]/listings/route";
import * as networksRoute from "../../../app/api/v1/settings/networks/route";
import { getDb } from "../../../db/client";
import type { SearchScope } from "../../../lib/search/engine";
import { memberNetworkIds } from "../../../lib/networks/networks";
import { toSearchRequest, type RawSearchParams } from "../../../lib/search/params";
import { PostgresSearchEngine } from "../../../lib/search/postgres/postgres-engine";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

const SECRET = 1_234_567;
let owner: TestTenant; // lists the private-price home and shares it
let partner: TestTenant; // a partner agency in the same network
const id: Record<string, string> = {};

async function listing(t: TestTenant, title: string, price: string, priceVisibility: "public" | "private") {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 3, totalArea: "100" },
      location: { neighborhood: "Jardins", city: "São Paulo", state: "SP" },
      listings: [{ title, type: "sale", price, priceVisibility, visibility: "public", stage: "active" }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.listings[0].id as string;
}

const search = (t: TestTenant, query: Record<string, string> = {}) =>
  call(searchRoute.GET, "GET", "/api/v1/real-estate/listings/search", { key: t.key, query: { query: "jardins", pageSize: "100", ...query } });
const priceOf = (body: any, listingId: string) => body.items.find((i: any) => i.id === listingId)?.price;
const has = (body: any, listingId: string) => body.items.some((i: any) => i.id === listingId);

beforeAll(async () => {
  owner = await makeTenant("Dona do imóvel");
  partner = await makeTenant("Parceira");
  const net = await call(networksRoute.POST, "POST", "/x", { key: owner.key, body: { name: "Rede Jardins" } });
  expect((await call(joinRoute.POST, "POST", "/x", { key: partner.key, body: { inviteCode: net.body.inviteCode } })).status).toBe(200);
  id.secret = await listing(owner, "Cobertura nos Jardins com preço sob consulta", String(SECRET), "private");
  id.open = await listing(owner, "Apartamento nos Jardins com preço aberto", "2000000", "public");
  id.partnerOwn = await listing(partner, "Apartamento da parceira nos Jardins", "999999", "private");
  const share = await call(shareRoute.PUT, "PUT", "/x", {
    key: owner.key,
    params: { id: net.body.id },
    body: { listingIds: [id.secret, id.open], shared: true },
  });
  expect(share.status).toBe(200);
});

describe("network search: a partner never sees a private price", () => {
  it("returns the shared listing with no price, and every price it may see", async () => {
    const res = await search(partner);
    expect(res.status).toBe(200);
    expect(has(res.body, id.secret)).toBe(true);
    expect(priceOf(res.body, id.secret)).toBeNull();
    expect(priceOf(res.body, id.open)).toBe(2_000_000);
    // Its own private price is its own to see.
    expect(priceOf(res.body, id.partnerOwn)).toBe(999_999);
    expect(JSON.stringify(res.body)).not.toContain(String(SECRET));
  });

  it("the owner still sees its own private price, in its own and in network searches", async () => {
    expect(priceOf((await search(owner)).body, id.secret)).toBe(SECRET);
    expect(priceOf((await search(owner, { includeNetworks: "false" })).body, id.secret)).toBe(SECRET);
    expect(has((await search(owner, { budget: "1300000" })).body, id.secret)).toBe(true);
    expect(has((await search(owner, { filter: `price:=${SECRET}` })).body, id.secret)).toBe(true);
    // The partner's private price is hidden from the owner in turn (it is not shared, so not even listed).
    expect(has((await search(owner)).body, id.partnerOwn)).toBe(false);
  });

  it("filters treat the hidden price as missing: comparisons never match it, negations always do", async () => {
    const probes: [Record<string, string>, boolean][] = [
      [{ budget: "1300000" }, false],
      [{ budget: "100000000" }, false],
      [{ filter: `price:=${SECRET}` }, false],
      [{ filter: "price:>1000000" }, false],
      [{ filter: "price:<1300000" }, false],
      [{ filter: "price:[1000000..1300000]" }, false],
      [{ filter: "price:[1000000..1300000] || title:consulta" }, true],
      [{ filter: `price:!=${SECRET}` }, true],
      [{ filter: "price:!=1" }, true],
      [{ filter: "price:!=[1000000..1300000]" }, true],
      [{ filter: "price:[!=5, >1000000]" }, true],
    ];
    for (const [query, expected] of probes) {
      const res = await search(partner, query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(has(res.body, id.secret), JSON.stringify(query)).toBe(expected);
    }
    // Public prices are still filtered normally for the partner.
    expect(has((await search(partner, { budget: "2000000" })).body, id.open)).toBe(true);
    expect(has((await search(partner, { budget: "1999999" })).body, id.open)).toBe(false);
    expect(has((await search(partner, { budget: "999999" })).body, id.partnerOwn)).toBe(true);
  });
});

describe("the PostgreSQL engine: sorts, facets and public surfaces", () => {
  const engine = new PostgresSearchEngine(getDb);
  const run = (p: RawSearchParams, s: SearchScope) => engine.search(s, toSearchRequest({ q: "jardins", query_by: "title", ...p }, { maxPerPage: 250 }));
  let partnerScope: SearchScope;
  beforeAll(async () => {
    partnerScope = { tenantId: partner.tenantId, access: { kind: "all" }, networkIds: await memberNetworkIds(await getDb(), partner.tenantId, true) };
  });

  it("sorts a hidden price last in both directions, whatever its value", async () => {
    for (const dir of ["asc", "desc"]) {
      const r = await run({ sort_by: `price:${dir}` }, partnerScope);
      expect(r.hits.map((h) => h.document.id).at(-1), dir).toBe(id.secret);
    }
  });

  it("leaves a hidden price out of facet counts and stats", async () => {
    const r = await run({ facet_by: "price" }, partnerScope);
    const price = r.facet_counts.find((f) => f.field_name === "price")!;
    expect(price.counts.map((c) => c.value)).not.toContain(String(SECRET));
    expect(price.stats).toMatchObject({ min: 999999, max: 2000000, total_values: 2 });
  });

  it("blanks every price field of the hit document", async () => {
    const r = await run({}, partnerScope);
    const doc = r.hits.find((h) => h.document.id === id.secret)!.document;
    expect(doc).toMatchObject({ price: null, priceFormatted: null, typologyBasePrice: null, typologyPricePerSqm: null, priceVisibility: "private" });
  });

  it("on a public surface, hides the tenant's own private prices too", async () => {
    const site: SearchScope = { tenantId: owner.tenantId, access: { kind: "all" }, networkIds: [], publicOnly: { activeStage: "active" } };
    const r = await run({ facet_by: "price", sort_by: "price:desc" }, site);
    const byId = Object.fromEntries(r.hits.map((h) => [h.document.id, h.document.price]));
    expect(byId).toEqual({ [id.open]: 2_000_000, [id.secret]: null });
    expect(r.hits.at(-1)!.document.id).toBe(id.secret);
    expect(r.facet_counts[0].stats).toMatchObject({ min: 2000000, max: 2000000, total_values: 1 });
    expect((await run({ filter_by: `price:=${SECRET}` }, site)).found).toBe(0);
  });
});
