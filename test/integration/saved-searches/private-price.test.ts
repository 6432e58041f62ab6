/**
 * A listing whose price is private shows no price to visitors, and its alerts must not narrow it
 * down either: it reaches only the searches without price bounds, and its price falls alert
 * nobody. The same listing with a public price reaches both and alerts its fall.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { savedSearchCursors, savedSearches } from "../../../db/schema";
import { matchSavedSearches } from "../../../lib/saved-searches/match";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { savedSearchRow } from "../../helpers/saved-searches";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;

beforeAll(async () => {
  t = await makeTenant("Imobiliária Preço Sob Consulta");
  const site = await makeSite(t);
  const db = await getDb();
  await db
    .insert(savedSearches)
    .values([
      savedSearchRow(t, site, { type: "sale", city: "Santos" }, { email: "qualquer-preco@cliente.test" }),
      savedSearchRow(t, site, { type: "sale", city: "Santos", minPrice: 500_000, maxPrice: 700_000 }, { email: "faixa@cliente.test" }),
    ]);
  await db
    .insert(savedSearchCursors)
    .values({ tenantId: t.tenantId, lastSeq: sql`(select coalesce(max(seq), 0) from events where tenant_id = ${t.tenantId}::uuid)` });
});

async function listing(priceVisibility: "public" | "private") {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 2, totalArea: "70" },
      location: { city: "Santos", neighborhood: "Gonzaga", state: "SP" },
      listings: [{ title: `Preço ${priceVisibility}`, type: "sale", price: "650000", priceVisibility, stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.listings[0].id as string;
}

async function matched(listingId: string) {
  const db = await getDb();
  while (await matchSavedSearches(db));
  const res = await db.execute(sql`
    select s.email, h.reason from saved_search_hits h join saved_searches s on s.id = h.saved_search_id
    where h.listing_id = ${listingId}::uuid order by s.email`);
  return rowsOf<{ email: string; reason: string }>(res);
}

async function dropPrice(id: string) {
  const res = await call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body: { price: "600000" } });
  expect(res.status).toBe(200);
  // Sent hits, so a new fall shows as due again.
  await (await getDb()).execute(sql`update saved_search_hits set sent_at = now() where listing_id = ${id}::uuid`);
}

describe("saved searches and private prices", () => {
  it("a private price matches only searches without price bounds, and its fall alerts nobody", async () => {
    const hidden = await listing("private");
    expect(await matched(hidden)).toEqual([{ email: "qualquer-preco@cliente.test", reason: "new" }]);
    await dropPrice(hidden);
    const due = async (id: string) =>
      rowsOf<{ n: number }>(
        await (await getDb()).execute(sql`select count(*)::int as n from saved_search_hits where listing_id = ${id}::uuid and sent_at is null`),
      )[0].n;
    await matched(hidden);
    expect(await due(hidden)).toBe(0);

    const shown = await listing("public");
    expect(await matched(shown)).toEqual([
      { email: "faixa@cliente.test", reason: "new" },
      { email: "qualquer-preco@cliente.test", reason: "new" },
    ]);
    await dropPrice(shown);
    await matched(shown);
    expect(await due(shown)).toBe(2);
  });
});
