import { describe, expect, it } from "vitest";
import { band, estimate, levelOf, roundMoney, type Candidate, type Subject } from "../../../lib/share/valuation/estimate";

const subject: Subject = {
  neighborhoodKey: "pinheiros",
  lat: -23.5662,
  lng: -46.6912,
  totalArea: 80,
  bedrooms: 2,
  bathrooms: 2,
  parkingSpaces: 1,
  propertyType: "apartment",
};
const comp = (ppsqm: number, over: Partial<Candidate> = {}): Candidate => ({
  neighborhoodKey: "pinheiros",
  neighborhood: "Pinheiros",
  lat: -23.5662,
  lng: -46.6912,
  totalArea: 80,
  bedrooms: 2,
  bathrooms: 2,
  parkingSpaces: 1,
  propertyType: "apartment",
  price: ppsqm * 80,
  ...over,
});

describe("estimate (pure)", () => {
  it("takes the median price per m²: one absurd listing does not move it", () => {
    const base = [14_000, 14_500, 15_000, 15_500, 16_000].map((p) => comp(p));
    const v = estimate(subject, [...base, comp(90_000)])!;
    expect(v.pricePerSqm).toBeGreaterThanOrEqual(15_000);
    expect(v.pricePerSqm).toBeLessThanOrEqual(15_500);
    expect(v.value).toBe(roundMoney(v.pricePerSqm * 80));
    expect(v.low).toBeLessThan(v.value);
    expect(v.high).toBeGreaterThan(v.value);
  });

  it("needs three comparables of the same type family; nearer and similar ones come first", () => {
    expect(estimate(subject, [comp(15_000), comp(15_000)])).toBeNull();
    expect(estimate(subject, [comp(15_000), comp(15_000), comp(15_000, { propertyType: "house" })])).toBeNull();
    expect(estimate(subject, [comp(15_000), comp(15_000), comp(15_000, { propertyType: "penthouse" })])).not.toBeNull();
    const far = Array.from({ length: 12 }, () => comp(30_000, { lat: -23.62, lng: -46.75, neighborhoodKey: "x", neighborhood: "X" }));
    const near = Array.from({ length: 12 }, () => comp(15_000));
    const v = estimate(subject, [...far, ...near])!;
    expect(v.used.every((u) => u.c.neighborhoodKey === "pinheiros")).toBe(true);
    expect(v.pricePerSqm).toBe(15_000);
  });

  it("widens the range and lowers the confidence as comparables disagree", () => {
    const tight = estimate(
      subject,
      Array.from({ length: 12 }, (_, i) => comp(15_000 + (i % 3) * 100)),
    )!;
    const loose = estimate(
      subject,
      Array.from({ length: 12 }, (_, i) => comp(9_000 + i * 1_000)),
    )!;
    expect(tight.score).toBeGreaterThan(loose.score);
    expect(tight.high / tight.low).toBeLessThan(loose.high / loose.low);
    expect(tight.level).toBe("high");
    expect(loose.level).toBe("low");
  });

  it("bands distances and caps the level with few comparables", () => {
    expect([band(0.5, false), band(2, false), band(4, false), band(9, false), band(null, true), band(null, false)]).toEqual([
      "under_1km",
      "1_to_3km",
      "3_to_5km",
      "over_5km",
      "under_1km",
      "over_5km",
    ]);
    expect(levelOf(0.95, 12)).toBe("high");
    expect(levelOf(0.95, 4)).toBe("medium");
    expect(levelOf(0.75, 12)).toBe("medium");
    expect(levelOf(0.5, 12)).toBe("low");
  });
});
