/**
 * A tenant's colours on every page it brands (sites, share pages, the pricing tool, link
 * previews), from its one primary colour, with WCAG 2 contrast: the colour itself, the text to
 * put on it, and a version of it dark enough for text and links on white.
 */

const HEX = /^#[0-9a-f]{6}$/i;
export const DEFAULT_BRAND_COLOR = "#1f6feb";
const WHITE = "#ffffff";
const INK = "#111111";

/** A colour the page may use (`#rrggbb`, lower case), or the fallback for anything else (a name, `url(…)`, a CSS injection). */
export const safeColor = (v: unknown, fallback = DEFAULT_BRAND_COLOR): string => (typeof v === "string" && HEX.test(v) ? v.toLowerCase() : fallback);

function channels(hex: string): [number, number, number] {
  const h = safeColor(hex);
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(channels(a)), luminance(channels(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const toHex = (c: [number, number, number]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** White or near-black, whichever reads better on the colour (at least 4.5:1 for any colour). */
export function textOn(bg: string): "#ffffff" | "#111111" {
  return contrastRatio(bg, WHITE) >= contrastRatio(bg, INK) ? WHITE : INK;
}

/**
 * The colour itself when it reaches `min` (4.5:1, normal text) against white; otherwise darkened
 * step by step towards black until it does, so a pale brand colour still gives readable links.
 */
export function inkOnWhite(color: string, min = 4.5): string {
  let c = channels(color);
  for (let i = 0; i < 40 && contrastRatio(toHex(c), WHITE) < min; i++) c = c.map((v) => v * 0.92) as [number, number, number];
  return toHex(c);
}

export type BrandPalette = { color: string; onColor: string; ink: string };

/** The three colours of a brand from a primary colour that may be anything a tenant saved. */
export function brandPalette(primary: unknown, fallback = DEFAULT_BRAND_COLOR): BrandPalette {
  const color = safeColor(primary, fallback);
  return { color, onColor: textOn(color), ink: inkOnWhite(color) };
}

/** The palette as the CSS custom properties every stylesheet reads: `--brand`, `--on-brand`, `--brand-ink`. */
export const brandVariables = (p: BrandPalette): Record<"--brand" | "--on-brand" | "--brand-ink", string> => ({
  "--brand": p.color,
  "--on-brand": p.onColor,
  "--brand-ink": p.ink,
});
