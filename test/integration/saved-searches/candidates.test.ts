/**
 * The candidate index query (saved_searches_candidates_idx) against the full filters: over a grid
 * of searches covering every indexed filter ("any", the listing's value, another value; price bounds
 * below, around, above and open; bedrooms), the candidates of a listing are exactly the searches
 * whose filters admit it, so the index never drops a match and reads no search it will reject.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { savedSearches } from "../../../db/schema";
import { matchesFilters, type MatchDoc, type SavedFilters } from "../../../lib/saved-searches/filters";
import { candidateSearches } from "../../../lib/saved-searches/match";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { savedSearchRow } from "../../helpers/saved-searches";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;
let other: TestTenant;
const grid: { id?: string; filters: SavedFilters }[] = [];

const prices: Pick<SavedFilters, "minPrice" | "maxPrice">[] = [
  {},
  { minPrice: 400_000 },
  { minPrice: 600_000 },
  { maxPrice: 400_000 },
  { maxPrice: 600_000 },
  { minPrice: 400_000, maxPrice: 500_000 },
  { minPrice: 500_000, maxPrice: 500_000 },
  { minPrice: 510_000, maxPrice: 900_000 },
];

beforeAll(async () => {
  t = await makeTenant("Imobiliária Candidatas");
  other = await makeTenant("Imobiliária Vizinha");
  for (const type of [undefined, "sale", "rental"] as const)
    for (const city of [undefined, "São Paulo", "Campinas"])
      for (const neighborhood of [undefined, "Jardim  Paulista", "Pinheiros"])
        for (const propertyType of [undefined, "apartment", "house"])
          for (const price of prices)
            for (const bedrooms of [undefined, 2, 3, 4])
              grid.push({ filters: JSON.parse(JSON.stringify({ type, city, neighborhood, propertyType, bedrooms, ...price })) });
  const db = await getDb();
  for (const tenant of [t, other]) {
    const site = await makeSite(tenant);
    const rows = grid.map(({ filters }, i) => savedSearchRow(tenant, site, filters, { email: `c${i}@cliente.test` }));
    for (let i = 0; i < rows.length; i += 500) {
      const ids = await db
        .insert(savedSearches)
        .values(rows.slice(i, i + 500))
        .returning({ id: savedSearches.id });
      if (tenant === t) for (const [j, r] of ids.entries()) grid[i + j].id = r.id;
    }
  }
  // A search waiting for its confirmation is never a candidate.
  await db.execute(sql`update saved_searches set status = 'pending' where id = ${grid[0].id}::uuid`);
});

const docs: MatchDoc[] = [
  { listingType: "sale", propertyType: "apartment", price: 500_000, bedrooms: 3, location_city: "Sao Paulo", location_neighborhood: "Jardim Paulista" },
  { listingType: "rental", propertyType: "house", price: 400_000, bedrooms: 2, location_city: "CAMPINAS", location_neighborhood: "Cambuí" },
  { listingType: "sale", propertyType: "house", price: null, location_city: "São Paulo", location_neighborhood: "Pinheiros" },
];

describe("saved-search candidates", () => {
  it.each(docs.map((d, i) => [i, d] as const))("listing %i: the candidates are exactly the searches its filters admit, in its tenant only", async (_i, doc) => {
    const db = await getDb();
    const got = (await candidateSearches(db, t.tenantId, doc)).map((c) => c.id).sort();
    const want = grid
      .slice(1)
      .filter((s) => matchesFilters(doc, s.filters))
      .map((s) => s.id!)
      .sort();
    expect(want.length).toBeGreaterThan(10);
    expect(got).toEqual(want);
  });

  it("spot checks: accents and spaces folded, bounds inclusive, a listing without a price only for searches without bounds", async () => {
    const db = await getDb();
    const ids = async (doc: MatchDoc) => new Set((await candidateSearches(db, t.tenantId, doc)).map((c) => c.id));
    const key = (f: SavedFilters) => JSON.stringify(Object.entries(f).sort());
    const find = (f: SavedFilters) => grid.find((s) => key(s.filters) === key(f))!.id!;
    const exact = find({
      type: "sale",
      city: "São Paulo",
      neighborhood: "Jardim  Paulista",
      propertyType: "apartment",
      minPrice: 500_000,
      maxPrice: 500_000,
      bedrooms: 3,
    });
    expect((await ids(docs[0])).has(exact)).toBe(true);
    expect((await ids({ ...docs[0], bedrooms: 2 })).has(exact)).toBe(false);
    expect((await ids({ ...docs[0], price: 500_001 })).has(exact)).toBe(false);
    expect((await ids({ ...docs[0], location_neighborhood: "Pinheiros" })).has(exact)).toBe(false);
    const noPrice = await ids(docs[2]);
    expect(noPrice.has(find({ city: "São Paulo" }))).toBe(true);
    expect(noPrice.has(find({ city: "São Paulo", maxPrice: 600_000 }))).toBe(false);
  });
});
