/**
 * Accessible colours from a tenant's primary colour (WCAG 2 relative luminance and contrast):
 * the text colour to put on it, and a version of it dark enough for text and links on white.
 */

const HEX = /^#[0-9a-f]{6}$/i;
const FALLBACK = "#1f6feb";

function channels(hex: string): [number, number, number] {
  const h = HEX.test(hex) ? hex : FALLBACK;
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

/** White or near-black, whichever reads better on the colour (both are checked, the higher wins). */
export function textOn(bg: string): "#ffffff" | "#111111" {
  return contrastRatio(bg, "#ffffff") >= contrastRatio(bg, "#111111") ? "#ffffff" : "#111111";
}

/**
 * The colour itself when it reaches `min` (4.5:1, normal text) against white; otherwise darkened
 * step by step towards black until it does, so a pale brand colour still gives readable links.
 */
export function accentOnWhite(color: string, min = 4.5): string {
  let c = channels(color);
  for (let i = 0; i < 40 && contrastRatio(toHex(c), "#ffffff") < min; i++) c = c.map((v) => v * 0.92) as [number, number, number];
  return toHex(c);
}

/** A hex colour the page may use (`#rrggbb`), or the default when the value is anything else. */
export const safeColor = (v: unknown): string => (typeof v === "string" && HEX.test(v) ? v.toLowerCase() : FALLBACK);
