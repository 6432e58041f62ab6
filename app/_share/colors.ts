/** WCAG relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return 0;
  const n = parseInt(m[1], 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

export const contrastRatio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

const DARK = "#111418";
const LIGHT = "#ffffff";

/** The brand colour, or a safe default when it is not a `#rrggbb` colour. */
export const brandColor = (c: string | null | undefined) => (c && /^#[0-9a-f]{6}$/i.test(c) ? c.toLowerCase() : "#1f6feb");

/** Text on the brand colour: white or near-black, whichever contrasts more (at least 4.5:1 for any colour). */
export const textOn = (bg: string) => (contrastRatio(bg, LIGHT) >= contrastRatio(bg, DARK) ? LIGHT : DARK);

/**
 * The brand colour as a text colour on white (links, prices): darkened step by step until it
 * reaches 4.5:1, so a light brand colour (yellow, pastel) still gives readable text.
 */
export function inkOnWhite(hex: string): string {
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  for (let i = 0; i < 40 && contrastRatio(toHex(r, g, b), LIGHT) < 4.5; i++) [r, g, b] = [r, g, b].map((c) => Math.floor(c * 0.9));
  return toHex(r, g, b);
}

const toHex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
