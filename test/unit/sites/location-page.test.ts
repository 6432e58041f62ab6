import { describe, expect, it } from "vitest";
import { locationSegmentsOf } from "../../../lib/sites/render/location-page";

describe("locationSegmentsOf", () => {
  it("gives a catalogue address's location segments", () => {
    expect(locationSegmentsOf("/imoveis")).toEqual([]);
    expect(locationSegmentsOf("/imoveis/")).toEqual([]);
    expect(locationSegmentsOf("/imoveis/sp/sao-paulo")).toEqual(["sp", "sao-paulo"]);
    expect(locationSegmentsOf("/imoveis/sp//pinheiros/")).toEqual(["sp", "pinheiros"]);
  });
  it("is null for any other page", () => {
    for (const p of ["/", "/imovel/AP1", "/imoveisx", "/blog/imoveis", "/imoveis-sp"]) expect(locationSegmentsOf(p), p).toBeNull();
  });
});
