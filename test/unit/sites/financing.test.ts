import { describe, expect, it } from "vitest";
import { financingFromQuery, monthlyRate, simulateFinancing } from "../../../lib/sites/render/financing";

describe("simulateFinancing", () => {
  it("computes SAC and Price payments", () => {
    // 400,000 financed over 360 months at 12 % a year (0.9489 % a month).
    const r = simulateFinancing({ price: 500_000, downPayment: 100_000, annualRatePercent: 12, years: 30 })!;
    expect(r.financed).toBe(400_000);
    expect(r.months).toBe(360);
    expect(monthlyRate(12)).toBeCloseTo(0.0094888, 6);
    // SAC: amortisation 1,111.11; first = 1,111.11 + 400,000 * i; last = 1,111.11 * (1 + i).
    expect(r.sac.first).toBeCloseTo(1111.11 + 400_000 * 0.0094888, 0);
    expect(r.sac.last).toBeCloseTo(1111.11 * 1.0094888, 1);
    // Price: PMT = P i / (1 - (1 + i)^-n).
    const i = monthlyRate(12);
    expect(r.price.monthly).toBeCloseTo((400_000 * i) / (1 - (1 + i) ** -360), 1);
    expect(r.price.total).toBeGreaterThan(r.sac.total);
  });
  it("handles a zero rate", () => {
    const r = simulateFinancing({ price: 120_000, downPayment: 0, annualRatePercent: 0, years: 10 })!;
    expect(r.price.monthly).toBe(1000);
    expect(r.sac.first).toBe(1000);
    expect(r.sac.last).toBe(1000);
  });
  it("refuses what cannot be financed", () => {
    expect(simulateFinancing({ price: 100, downPayment: 100, annualRatePercent: 10, years: 10 })).toBeNull();
    expect(simulateFinancing({ price: 100, downPayment: 10, annualRatePercent: 10, years: 0 })).toBeNull();
    expect(simulateFinancing({ price: 100, downPayment: 10, annualRatePercent: 10, years: 2.5 })).toBeNull();
    expect(simulateFinancing({ price: 0, downPayment: 0, annualRatePercent: 10, years: 10 })).toBeNull();
    expect(simulateFinancing({ price: 100, downPayment: -1, annualRatePercent: 10, years: 10 })).toBeNull();
  });
});

describe("financingFromQuery", () => {
  it("reads the form and fills defaults", () => {
    expect(financingFromQuery(500_000, {})).toEqual({ price: 500_000, downPayment: 100_000, annualRatePercent: 11.5, years: 30 });
    expect(financingFromQuery(500_000, { entrada: "150000", juros: "9,5", prazo: "20" })).toEqual({
      price: 500_000,
      downPayment: 150_000,
      annualRatePercent: 9.5,
      years: 20,
    });
    expect(financingFromQuery(500_000, { entrada: "abc" }).downPayment).toBe(100_000);
  });
});
