/** Location pages of a site: slugs and counts from the listings the site shows, and path validation. */
import { beforeAll, describe, expect, it } from "vitest";
import * as validateRoute from "../../../app/api/sites/[siteId]/locations/validate/route";
import * as locationsRoute from "../../../app/api/sites/[siteId]/locations/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { slugify } from "../../../lib/sites/locations";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.7.${Math.floor(++ip / 250)}.${ip % 250}` });

let a: TestTenant;
let site: { id: string };
let otherSite: { id: string };

async function home(t: TestTenant, loc: Record<string, string>, visibility = "public") {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: { property: { type: "apartment" }, location: loc, listings: [{ title: "Apartamento", type: "sale", visibility, stage: "active", price: "500000" }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  a = await makeTenant();
  const b = await makeTenant();
  await home(a, { state: "SP", city: "São Paulo", neighborhood: "Pinheiros", street: "Rua dos Pinheiros" });
  await home(a, { state: "SP", city: "São Paulo", neighborhood: "Pinheiros", street: "Rua dos Pinheiros" });
  await home(a, { state: "SP", city: "São Paulo", neighborhood: "Vila Madalena", street: "Rua Aspicuelta" });
  await home(a, { state: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana" });
  await home(a, { state: "MG", city: "Belo Horizonte", neighborhood: "Savassi" }, "private");
  await home(b, { state: "PR", city: "Curitiba", neighborhood: "Batel" });
  site = await makeSite(a);
  otherSite = await makeSite(a, { listingCriteria: { propertyTypes: [], locations: ["RJ"] } });
});

const locations = (s: { id: string }, query: Record<string, string> = {}) =>
  call(locationsRoute.GET, "GET", "/x", { params: { siteId: s.id }, query, headers: headers() });
const validate = (query: Record<string, string>) => call(validateRoute.GET, "GET", "/x", { params: { siteId: site.id }, query, headers: headers() });

describe("GET /locations", () => {
  it("maps each level's slugs to names and counts of the site's visible listings", async () => {
    const res = await locations(site);
    expect(res.status).toBe(200);
    expect(res.body.states).toEqual({ sp: { slug: "sp", name: "SP", count: 3 }, rj: { slug: "rj", name: "RJ", count: 1 } });
    expect(res.body.cities["sao-paulo"]).toEqual({ slug: "sao-paulo", name: "São Paulo", count: 3 });
    expect(res.body.neighborhoods["vila-madalena"]).toEqual({ slug: "vila-madalena", name: "Vila Madalena", count: 1 });
    expect(res.body.streets["rua-dos-pinheiros"].count).toBe(2);
    // Private listings and other tenants' listings are not locations of this site.
    expect(JSON.stringify(res.body)).not.toMatch(/Savassi|Curitiba/);
    expect(Object.keys((await locations(otherSite)).body.states)).toEqual(["rj"]);
  });

  it("tells what a segment is, and refuses a 10 KB segment", async () => {
    expect((await locations(site, { segment: "Vila-Madalena" })).body).toEqual({
      segment: "Vila-Madalena",
      match: { type: "neighborhood", value: "Vila Madalena" },
    });
    expect((await locations(site, { segment: "nowhere" })).body).toEqual({ segment: "nowhere", match: null });
    const big = await locations(site, { segment: "x".repeat(10_000) });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain("segment");
  });

  it("folds accents and punctuation into slugs", () => {
    expect(slugify("São João d'Aliança / Centro")).toBe("sao-joao-d-alianca-centro");
  });
});

describe("GET /locations/validate", () => {
  it("validates a path into matches and a breadcrumb under the base route", async () => {
    const res = await validate({ path: "sp/sao-paulo/pinheiros/rua-dos-pinheiros", baseRoute: "comprar" });
    expect(res.body).toEqual({
      valid: true,
      matches: { state: "SP", city: "São Paulo", neighborhood: "Pinheiros" },
      breadcrumb: [
        { slug: "sp", name: "SP", type: "state", path: "/comprar/sp" },
        { slug: "sao-paulo", name: "São Paulo", type: "city", path: "/comprar/sp/sao-paulo" },
        { slug: "pinheiros", name: "Pinheiros", type: "neighborhood", path: "/comprar/sp/sao-paulo/pinheiros" },
        { slug: "rua-dos-pinheiros", name: "Rua dos Pinheiros", type: "street", path: "/comprar/sp/sao-paulo/pinheiros/rua-dos-pinheiros" },
      ],
    });
    expect((await validate({ path: "/sp/" })).body.breadcrumb[0].path).toBe("/imoveis/sp");
  });

  it.each([
    [{}, "missing_path"],
    [{ path: " / " }, "empty_path"],
    [{ path: "a/b/c/d/e" }, "path_too_deep"],
    [{ path: "pr" }, "state_not_found"],
    [{ path: "rj/sao-paulo" }, "city_not_in_state"],
    [{ path: "sp/sao-paulo/copacabana" }, "neighborhood_not_in_city"],
    [{ path: "sp/sao-paulo/pinheiros/rua-augusta" }, "no_listings"],
  ])("%j is %s", async (query, code) => {
    const res = await validate(query as Record<string, string>);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, error: code, message: expect.any(String) });
  });

  it("refuses a baseRoute that is not URL segments", async () => {
    expect((await validate({ path: "sp", baseRoute: "../x" })).status).toBe(400);
  });
});
