/**
 * The matcher reads a tenant's whole outbox but only its listing events matter: the others (a
 * property, a deal, a chat's messages) move the cursor and count as read, so a batch made only of
 * them neither stops the matcher early nor hides the listing event that comes after it.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { savedSearchCursors, savedSearches } from "../../../db/schema";
import { matchTenantBatch } from "../../../lib/saved-searches/match";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { savedSearchRow } from "../../helpers/saved-searches";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;

beforeAll(async () => {
  t = await makeTenant("Imobiliária Outbox Misto");
  const site = await makeSite(t);
  const db = await getDb();
  await db.insert(savedSearches).values(savedSearchRow(t, site, { type: "sale", city: "Campinas" }, { email: "comprador@cliente.test" }));
  await db
    .insert(savedSearchCursors)
    .values({ tenantId: t.tenantId, lastSeq: sql`(select coalesce(max(seq), 0) from events where tenant_id = ${t.tenantId}::uuid)` });
});

describe("the matcher and the outbox's other events", () => {
  it("moves past every event one at a time and alerts on the listing event among them", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        property: { type: "apartment", bedrooms: 2 },
        location: { city: "Campinas", neighborhood: "Cambuí", state: "SP" },
        listings: [{ title: "Apartamento no Cambuí", type: "sale", price: "650000", stage: "active" }],
      },
    });
    expect(res.status).toBe(201);
    const listingId = (res.body.listings[0] as { id: string }).id;
    const db = await getDb();
    const names = rowsOf<{ event_name: string }>(
      await db.execute(sql`
        select e.event_name from events e join saved_search_cursors c on c.tenant_id = e.tenant_id
        where e.tenant_id = ${t.tenantId}::uuid and e.seq > c.last_seq order by e.seq`),
    ).map((r) => r.event_name);
    // The property's own event comes with the listing's: the batch of one before it has no listing.
    expect(names).toContain("listing.created");
    expect(names.filter((n) => !n.startsWith("listing.")).length).toBeGreaterThan(0);

    const runs: { read: number; due: number }[] = [];
    for (;;) {
      const r = await matchTenantBatch(db, t.tenantId, 1);
      if (!r.read) break;
      runs.push(r);
    }
    // One run per event, each counted as read; only the listing's brought a hit.
    expect(runs.map((r) => r.read)).toEqual(names.map(() => 1));
    expect(runs.map((r) => r.due)).toEqual(names.map((n) => (n === "listing.created" ? 1 : 0)));
    const hits = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from saved_search_hits where listing_id = ${listingId}::uuid`));
    expect(hits[0].n).toBe(1);
  });
});
