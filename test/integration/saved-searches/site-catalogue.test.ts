/**
 * A saved search belongs to a site, and a site shows only the listings its criteria admit: a
 * listing its catalogue leaves out alerts none of that site's searches, however well it fits
 * their filters, while the tenant's other site, showing it, alerts its own. Searches with words
 * are checked on the document as their site shows it.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { savedSearchCursors, savedSearches } from "../../../db/schema";
import type { SavedFilters } from "../../../lib/saved-searches/filters";
import { matchSavedSearches } from "../../../lib/saved-searches/match";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { savedSearchRow } from "../../helpers/saved-searches";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;
/** The tenant's site of houses only, and its site of everything. */
let houses: { id: string; domain: string };
let all: { id: string; domain: string };

beforeAll(async () => {
  t = await makeTenant("Imobiliária Dois Sites");
  houses = await makeSite(t, { listingCriteria: { propertyTypes: ["house"], locations: [] } });
  all = await makeSite(t);
  const db = await getDb();
  const plain: SavedFilters = { type: "sale", city: "Campinas", maxPrice: 2_000_000 };
  const pool: SavedFilters = { ...plain, q: "piscina" };
  await db
    .insert(savedSearches)
    .values([
      savedSearchRow(t, houses, plain, { email: "casas@cliente.test" }),
      savedSearchRow(t, houses, pool, { email: "casas-piscina@cliente.test" }),
      savedSearchRow(t, all, plain, { email: "tudo@cliente.test" }),
      savedSearchRow(t, all, pool, { email: "tudo-piscina@cliente.test" }),
    ]);
  await db
    .insert(savedSearchCursors)
    .values({ tenantId: t.tenantId, lastSeq: sql`(select coalesce(max(seq), 0) from events where tenant_id = ${t.tenantId}::uuid)` });
});

async function listing(propertyType: string, description: string) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: propertyType, bedrooms: 3, totalArea: "150" },
      location: { city: "Campinas", neighborhood: "Cambuí", state: "SP" },
      listings: [{ title: `${propertyType} no Cambuí`, description, type: "sale", price: "1200000", stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
  const id = (res.body.listings[0] as { id: string }).id;
  const db = await getDb();
  while (await matchSavedSearches(db));
  const hits = await db.execute(sql`
    select s.email from saved_search_hits h join saved_searches s on s.id = h.saved_search_id
    where h.listing_id = ${id}::uuid order by s.email`);
  return rowsOf<{ email: string }>(hits).map((h) => h.email);
}

describe("saved searches and their site's catalogue", () => {
  it("alerts only the searches of the sites that show the listing", async () => {
    // An apartment: the houses-only site does not show it.
    expect(await listing("apartment", "Apartamento claro, varanda")).toEqual(["tudo@cliente.test"]);
    expect(await listing("apartment", "Apartamento com piscina no condomínio")).toEqual(["tudo-piscina@cliente.test", "tudo@cliente.test"]);
    // A house: both sites show it; the word searches only where its text has the word.
    expect(await listing("house", "Casa térrea com quintal")).toEqual(["casas@cliente.test", "tudo@cliente.test"]);
    expect(await listing("house", "Casa com piscina aquecida")).toEqual([
      "casas-piscina@cliente.test",
      "casas@cliente.test",
      "tudo-piscina@cliente.test",
      "tudo@cliente.test",
    ]);
  });
});
