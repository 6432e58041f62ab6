/**
 * Lookups made on every listing page view or lead, kept cheap: a listing by its code in any case and
 * a returning person by CPF go through indexes (not a walk over the tenant's rows), and the similar
 * listings' candidate searches ask for no total, so the engine does not count a whole state's catalogue.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import type { SearchScope } from "../../../lib/search/engine";
import { toSearchRequest } from "../../../lib/search/params";
import { PostgresSearchEngine } from "../../../lib/search/postgres/postgres-engine";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let codes: string[];

beforeAll(async () => {
  t = await makeTenant();
  codes = [];
  for (const [i, city] of ["Santos", "Santos", "Santos", "Guarujá"].entries()) {
    const res = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        property: { type: "apartment", bedrooms: 2 },
        location: { city, state: "SP" },
        listings: [{ title: `Apartamento ${i}`, type: "sale", price: "500000", stage: "active" }],
      },
    });
    expect(res.status).toBe(201);
    codes.push(res.body.listings[0].listingCode);
  }
});

describe("a listing by its code in any case", () => {
  it("is found through listings_tenant_code_upper_idx", async () => {
    const db = await getDb();
    const plan = await db.transaction(async (tx) => {
      // The tables are tiny here: without this the planner may read them whole whatever the indexes.
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(
        sql`explain select id from listings where tenant_id = ${t.tenantId}::uuid and upper(listing_code) = ${codes[0].toUpperCase()} limit 1`,
      );
      return rowsOf<Record<string, string>>(res)
        .map((r) => Object.values(r)[0])
        .join("\n");
    });
    expect(plan).toContain("listings_tenant_code_upper_idx");
  });
});

describe("a returning person by CPF", () => {
  it("is found through contacts_tenant_cpf_idx", async () => {
    const db = await getDb();
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(sql`explain select * from contacts where tenant_id = ${t.tenantId}::uuid and cpf = '52998224725' limit 1`);
      return rowsOf<Record<string, string>>(res)
        .map((r) => Object.values(r)[0])
        .join("\n");
    });
    expect(plan).toContain("contacts_tenant_cpf_idx");
  });
});

describe("a search asking for no total", () => {
  const engine = new PostgresSearchEngine(getDb);
  const scope = (): SearchScope => ({ tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] });

  it("gives the same hits, with found the number of hits instead of all matches", async () => {
    const req = toSearchRequest({ q: "*", per_page: 2, filter_by: "location_city:=Santos" }, { maxPerPage: 250 });
    const counted = await engine.search(scope(), req);
    const uncounted = await engine.search(scope(), { ...req, total: false });
    expect(counted.found).toBe(3);
    expect(uncounted.found).toBe(2);
    expect(uncounted.hits.map((h) => h.document.id)).toEqual(counted.hits.map((h) => h.document.id));
  });

  it("still retries a misspelt word when nothing matches it", async () => {
    // With a filter, so the text goes through the general page query (text alone has its own, always counted).
    const ask = (q: string) => ({ ...toSearchRequest({ q, query_by: "location_city", filter_by: "bedrooms:=2" }, { maxPerPage: 250 }), total: false as const });
    const exact = await engine.search(scope(), ask("Guarujá"));
    expect(exact.hits).toHaveLength(1);
    const misspelt = await engine.search(scope(), ask("Guarujx"));
    expect(misspelt.hits.map((h) => h.document.id)).toEqual(exact.hits.map((h) => h.document.id));
  });
});
