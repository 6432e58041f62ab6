import { describe, expect, it } from "vitest";
import { brandPalette, contrastRatio, inkOnWhite, safeColor, textOn } from "../../../lib/brand/brand-colors";

describe("brand colours with accessible contrast", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 1);
  });
  it("puts white on dark colours and near-black on pale ones", () => {
    expect(textOn("#0f766e")).toBe("#ffffff");
    expect(textOn("#1f6feb")).toBe("#ffffff");
    expect(textOn("#ffd400")).toBe("#111111");
    expect(textOn("#ffffff")).toBe("#111111");
  });
  it("darkens a pale colour until it reads as text on white (4.5:1), keeps a dark one", () => {
    expect(inkOnWhite("#0f766e")).toBe("#0f766e");
    for (const c of ["#ffd400", "#ffffff", "#7fdbff", "#ff4136"]) expect(contrastRatio(inkOnWhite(c), "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
  it("one palette per primary colour: the colour, the text on it, the colour as text on white", () => {
    expect(brandPalette("#FFD400")).toEqual({ color: "#ffd400", onColor: "#111111", ink: inkOnWhite("#ffd400") });
    expect(brandPalette("url(x)", "#0b5cad").color).toBe("#0b5cad");
  });
  it("accepts only #rrggbb", () => {
    expect(safeColor("#ABCDEF")).toBe("#abcdef");
    for (const bad of ["red", "#abc", "url(x)", "#12345g;background:url(x)", null]) expect(safeColor(bad)).toBe("#1f6feb");
  });
});
