import type { Rng } from "../random";

/** Tiny SVG writers: integers only and no whitespace to spare, so each picture stays a few KB. */
const r = (n: number) => Math.round(n);

export const rect = (x: number, y: number, w: number, h: number, fill: string, extra = "") =>
  `<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}" fill="${fill}"${extra}/>`;

export const rrect = (x: number, y: number, w: number, h: number, rad: number, fill: string, extra = "") => rect(x, y, w, h, fill, ` rx="${r(rad)}"${extra}`);

export const circle = (cx: number, cy: number, rad: number, fill: string, extra = "") =>
  `<circle cx="${r(cx)}" cy="${r(cy)}" r="${r(rad)}" fill="${fill}"${extra}/>`;

export const ellipse = (cx: number, cy: number, rx: number, ry: number, fill: string, extra = "") =>
  `<ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(rx)}" ry="${r(ry)}" fill="${fill}"${extra}/>`;

export const poly = (points: [number, number][], fill: string, extra = "") =>
  `<polygon points="${points.map(([x, y]) => `${r(x)},${r(y)}`).join(" ")}" fill="${fill}"${extra}/>`;

export const line = (x1: number, y1: number, x2: number, y2: number, stroke: string, width = 2) =>
  `<line x1="${r(x1)}" y1="${r(y1)}" x2="${r(x2)}" y2="${r(y2)}" stroke="${stroke}" stroke-width="${width}"/>`;

export const path = (d: string, fill: string, extra = "") => `<path d="${d}" fill="${fill}"${extra}/>`;

/** A vertical (default) or horizontal linear gradient definition. */
export const gradient = (id: string, stops: string[], horizontal = false) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="${horizontal ? 1 : 0}" y2="${horizontal ? 0 : 1}">` +
  stops.map((c, i) => `<stop offset="${stops.length === 1 ? 0 : i / (stops.length - 1)}" stop-color="${c}"/>`).join("") +
  `</linearGradient>`;

export function svgDoc(width: number, height: number, defs: string[], body: string[], title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">` +
    `<title>${title}</title><defs>${defs.join("")}</defs>${body.join("")}</svg>\n`
  );
}

export function hsl(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** A harmonious set of colours for one picture. */
export function palette(rng: Rng) {
  const hue = rng.int(0, 359);
  const accent = (hue + rng.pick([150, 180, 210])) % 360;
  const warm = rng.pick([28, 35, 40, 20]);
  return {
    wall: hsl(hue, rng.int(8, 25), rng.int(84, 93)),
    wallShade: hsl(hue, rng.int(8, 20), rng.int(74, 82)),
    floor: hsl(warm, rng.int(30, 45), rng.int(42, 58)),
    floorDark: hsl(warm, rng.int(30, 45), rng.int(32, 40)),
    accent: hsl(accent, rng.int(35, 60), rng.int(40, 55)),
    accentLight: hsl(accent, rng.int(35, 60), rng.int(65, 75)),
    fabric: hsl(rng.pick([hue, accent, 210, 30]), rng.int(10, 35), rng.int(45, 70)),
    wood: hsl(warm, rng.int(35, 50), rng.int(35, 50)),
    sky: [hsl(rng.int(195, 215), rng.int(55, 75), rng.int(55, 65)), hsl(rng.int(190, 210), rng.int(50, 70), rng.int(82, 90))],
    leaf: hsl(rng.int(95, 140), rng.int(35, 55), rng.int(30, 42)),
    leafLight: hsl(rng.int(95, 140), rng.int(35, 55), rng.int(45, 55)),
  };
}

export type Palette = ReturnType<typeof palette>;
