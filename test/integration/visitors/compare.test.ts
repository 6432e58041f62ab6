/**
 * The compare view's data (issue 37): up to 4 listings the site shows, in the visitor's order,
 * built from the public detail document only: a private price stays "Consulte" (and gives no price
 * per m²), owner contacts, notes and the street number never reach the page's figures (the street name is public).
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { loadPublicSite } from "../../../lib/sites/load-site";
import { compareListings } from "../../../lib/sites/compare-listings";
import { compareView } from "../../../lib/listings/view/compare-view";
import { translator } from "../../../lib/i18n/translator";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const MARK = { owner: "CmpOwnerMarker", email: "cmp-owner@private.example.com", notes: "CmpNotesMarker", number: "CmpNum77" };
let a: TestTenant;
let b: TestTenant;
let siteId: string;
const L: Record<string, string> = {};

async function listing(t: TestTenant, key: string, price: string, over: Record<string, unknown> = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: {
        type: "apartment",
        bedrooms: 3,
        suites: 1,
        bathrooms: 2,
        parkingSpaces: 2,
        totalArea: "100",
        privateArea: "80",
        condominiumFee: "1200",
        propertyTax: "3000",
        owner: { name: MARK.owner, email: MARK.email, phone: "+5511977770002" },
        internalNotes: MARK.notes,
      },
      location: { street: "Rua Teodoro Sampaio", number: MARK.number, neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title: `Apartamento ${key}`, type: "sale", price, visibility: "public", stage: "active", ...over }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  L[key] = res.body.listings[0].id;
}

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  await listing(a, "one", "800000");
  await listing(a, "two", "640000");
  await listing(a, "secret", "999999", { priceVisibility: "private" });
  await listing(a, "draft", "500000", { stage: "draft" });
  await listing(a, "five", "700000");
  await listing(b, "foreign", "100000");
  siteId = (await makeSite(a)).id;
});

describe("compare view", () => {
  it("shows the site's listings in the visitor's order, public fields only", async () => {
    const db = await getDb();
    const site = await loadPublicSite(db, siteId);
    const got = await compareListings(db, site, `${L.two},nope,${L.secret},${L.foreign},${L.draft},${L.one}`);
    // The first 4 well-formed ids: the foreign and the draft one are not shown (2 missing), the 5th is left out.
    expect(got.docs.map((d) => d.id)).toEqual([L.two, L.secret]);
    expect(got.missing).toBe(2);
    expect(got.more).toBe(true);
    const view = compareView(got.docs, "pt-BR", translator("pt-BR"));
    const row = (k: string) => view.rows.find((r) => r.key === k)!.cells;
    expect(row("price")[1]).toBe("Consulte");
    expect(row("pricePerSqm")[0].replace(/\s/g, " ")).toBe("R$ 8.000");
    expect(row("pricePerSqm")[1]).toBe("—");
    expect(row("condoFee")[0].replace(/\s/g, " ")).toBe("R$ 1.200");
    expect(row("propertyTax")[0].replace(/\s/g, " ")).toBe("R$ 3.000");
    expect(row("privateArea")[0]).toBe("80 m²");
    expect(row("bedrooms")).toEqual(["3", "3"]);
    expect(row("place")[0]).toContain("Pinheiros");
    const everything = JSON.stringify({ got, view });
    for (const m of [...Object.values(MARK), "999999", "999.999"]) expect(everything).not.toContain(m);
  });

  it("marks the lowest price per m² when two listings have one; another tenant's site shows none of them", async () => {
    const db = await getDb();
    const view = compareView((await compareListings(db, await loadPublicSite(db, siteId), `${L.one},${L.two}`)).docs, "en", translator("en"));
    expect(view.rows.find((r) => r.key === "pricePerSqm")!.best).toBe(1);
    const foreignSite = await loadPublicSite(db, (await makeSite(b)).id);
    expect((await compareListings(db, foreignSite, `${L.one},${L.two}`)).docs).toEqual([]);
  });
});
