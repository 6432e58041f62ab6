import { describe, expect, it } from "vitest";
import { filterBy, isFiltered, parseCatalogue, searchBody, stateParams } from "../../../lib/sites/render/catalogue-query";
import { parseFilter } from "../../../lib/search/filter";
import { PUBLIC_FILTER_SCHEMA } from "../../../lib/sites/public-fields";

describe("parseCatalogue", () => {
  it("reads every filter of the URL", () => {
    const s = parseCatalogue({
      type: "sale",
      propertyType: "apartment",
      minPrice: "300000",
      maxPrice: "900.000",
      bedrooms: "2",
      minArea: "50",
      maxArea: "120",
      city: "São Paulo",
      neighborhood: "Pinheiros",
      sort: "price_asc",
      page: "3",
      q: "varanda",
    });
    expect(s).toEqual({
      q: "varanda",
      type: "sale",
      propertyType: "apartment",
      minPrice: 300000,
      maxPrice: 900000,
      bedrooms: 2,
      minArea: 50,
      maxArea: 120,
      city: "São Paulo",
      neighborhood: "Pinheiros",
      sort: "price_asc",
      page: 3,
    });
  });
  it("drops bad values instead of failing", () => {
    const s = parseCatalogue({ type: "lease", propertyType: "Apto; drop", minPrice: "-5", bedrooms: "99", page: "0", sort: "price", minArea: "abc" });
    expect(s).toEqual({
      sort: "newest",
      page: 1,
      q: undefined,
      type: undefined,
      propertyType: undefined,
      minPrice: undefined,
      maxPrice: undefined,
      bedrooms: undefined,
      minArea: undefined,
      maxArea: undefined,
      city: undefined,
      neighborhood: undefined,
    });
    expect(parseCatalogue({ page: ["2", "5"] }).page).toBe(2);
    expect(parseCatalogue({ page: "100000" }).page).toBe(1);
  });
  it("swaps inverted ranges", () => {
    expect(parseCatalogue({ minPrice: "900", maxPrice: "100" })).toMatchObject({ minPrice: 100, maxPrice: 900 });
  });
});

describe("filterBy", () => {
  it("builds a filter the public search parses, quoting names", () => {
    const s = parseCatalogue({ type: "rental", city: "São Paulo", bedrooms: "3", minPrice: "1000" });
    const f = filterBy(s, { state: "SP", neighborhood: "Vila `Madalena" });
    expect(f).toBe(
      "listingType:=rental && price:>=1000 && bedrooms:>=3 && location_state:=`SP` && location_city:=`São Paulo` && location_neighborhood:=`Vila Madalena`",
    );
    expect(() => parseFilter(f, PUBLIC_FILTER_SCHEMA)).not.toThrow();
  });
  it("is empty without filters", () => {
    expect(filterBy(parseCatalogue({}))).toBe("");
    expect(searchBody(parseCatalogue({}))).not.toHaveProperty("filter_by");
  });
});

describe("stateParams and isFiltered", () => {
  it("leave defaults out of URLs", () => {
    expect(stateParams(parseCatalogue({ page: "1", sort: "newest" }))).toEqual(expect.objectContaining({ page: undefined, sort: undefined }));
    expect(stateParams(parseCatalogue({ page: "2", sort: "price_desc" }))).toEqual(expect.objectContaining({ page: "2", sort: "price_desc" }));
    expect(isFiltered(parseCatalogue({ page: "4" }))).toBe(false);
    expect(isFiltered(parseCatalogue({ bedrooms: "2" }))).toBe(true);
  });
  it("keep the map view in every link built from the state, without making it a filter", () => {
    const s = parseCatalogue({ view: "map", bedrooms: "2", page: "3" });
    expect(s.view).toBe("map");
    // A facet or pager link: the page's state with one change.
    expect(stateParams({ ...s, page: 1, type: "rental" })).toMatchObject({ view: "map", bedrooms: "2", type: "rental" });
    expect(stateParams({ ...s, page: 4 })).toMatchObject({ view: "map", page: "4" });
    expect(isFiltered(parseCatalogue({ view: "map" }))).toBe(false);
    expect(searchBody(s)).not.toHaveProperty("view");
    // Any other value is the list.
    for (const v of ["list", "MAP", "mapa", ""]) expect(stateParams(parseCatalogue({ view: v })).view, v).toBeUndefined();
  });
});
