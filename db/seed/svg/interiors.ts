import type { Rng } from "../random";
import type { Scene } from "./exteriors";
import { circle, ellipse, gradient, hsl, line, palette, poly, rect, rrect, type Palette } from "./primitives";

const W = 1200;

/** Wall, wooden floor with planks, and a window onto a city skyline. */
function room(p: Palette, defs: string[], body: string[], rng: Rng, horizon = 560) {
  defs.push(gradient("wall", [p.wall, p.wallShade]), gradient("sky", p.sky));
  defs.push(
    `<pattern id="planks" width="160" height="40" patternUnits="userSpaceOnUse">${rect(0, 0, 160, 40, p.floor)}` +
      `${line(0, 39, 160, 39, p.floorDark, 2)}${line(rng.int(40, 120), 0, rng.int(40, 120), 40, p.floorDark, 2)}</pattern>`,
  );
  body.push(rect(0, 0, W, horizon, "url(#wall)"), rect(0, horizon, W, 800 - horizon, "url(#planks)"));
  body.push(rect(0, horizon - 14, W, 14, p.wallShade));
}

function window(x: number, y: number, w: number, h: number, body: string[], rng: Rng) {
  body.push(rect(x - 10, y - 10, w + 20, h + 20, "#f7f7f4"), rect(x, y, w, h, "url(#sky)"));
  for (let bx = x + 10; bx < x + w - 30; bx += rng.int(40, 70)) {
    const bh = rng.int(40, h * 0.6);
    body.push(rect(bx, y + h - bh, rng.int(25, 45), bh, hsl(215, 12, rng.int(62, 75))));
  }
  body.push(line(x + w / 2, y, x + w / 2, y + h, "#f7f7f4", 8));
}

function plant(x: number, floor: number, p: Palette): string {
  return (
    rrect(x - 30, floor - 70, 60, 70, 8, p.accent) +
    [
      [-30, -120],
      [10, -150],
      [35, -110],
      [-5, -95],
      [-40, -85],
    ]
      .map(([dx, dy]) => ellipse(x + dx, floor + dy, 34, 18, p.leaf))
      .join("")
  );
}

function lamp(x: number, floor: number, p: Palette): string {
  return (
    line(x, floor, x, floor - 260, "#333", 5) +
    poly(
      [
        [x - 40, floor - 250],
        [x + 40, floor - 250],
        [x + 25, floor - 310],
        [x - 25, floor - 310],
      ],
      p.accentLight,
    )
  );
}

export function livingRoom(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  room(p, defs, body, rng);
  window(rng.int(640, 760), 110, 360, 300, body, rng);
  body.push(rect(160, 150, 220, 150, p.accent, ' stroke="#fff" stroke-width="10"'), circle(230, 210, 35, p.accentLight));
  body.push(ellipse(520, 700, 380, 70, p.accentLight, ' opacity="0.8"'));
  body.push(
    rrect(180, 430, 560, 120, 30, p.fabric),
    rrect(160, 480, 600, 110, 26, p.fabric),
    rrect(150, 460, 60, 140, 20, p.fabric),
    rrect(710, 460, 60, 140, 20, p.fabric),
  );
  for (const x of [240, 380, 520]) body.push(rrect(x, 440, 110, 70, 18, hsl(0, 0, 96), ' opacity="0.9"'));
  body.push(rrect(rng.int(330, 420), 640, 260, 24, 8, p.wood), rect(380, 664, 12, 50, p.wood), rect(620, 664, 12, 50, p.wood));
  body.push(plant(1060, 700, p), lamp(90, 600, p));
  return { defs, body };
}

export function kitchen(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  room(p, defs, body, rng, 600);
  const tile = hsl(rng.int(0, 360), rng.int(5, 30), rng.int(85, 95));
  defs.push(
    `<pattern id="tiles" width="60" height="30" patternUnits="userSpaceOnUse">${rect(0, 0, 60, 30, tile)}${line(0, 29, 60, 29, p.wallShade, 2)}${line(59, 0, 59, 30, p.wallShade, 2)}</pattern>`,
  );
  body.push(rect(80, 250, 880, 160, "url(#tiles)"));
  const cab = rng.chance(0.5) ? p.wood : p.accent;
  for (let x = 80; x < 960; x += 176) body.push(rect(x + 4, 80, 168, 160, cab), rect(x + 80, 200, 16, 6, "#ddd"));
  body.push(rect(70, 400, 900, 24, "#e9e6e0"));
  for (let x = 80; x < 960; x += 176) body.push(rect(x + 4, 424, 168, 170, cab), rect(x + 70, 440, 36, 6, "#ddd"));
  body.push(rect(1000, 80, 150, 514, "#c9ccd0"), line(1000, 280, 1150, 280, "#aaa", 4), rect(1020, 180, 8, 70, "#888"));
  body.push(rect(300, 560, 520, 30, "#f2efe9"), rect(320, 590, 480, 130, p.wallShade));
  for (const x of [380, 560, 740])
    body.push(
      line(x, 0, x, 120, "#333", 3),
      poly(
        [
          [x - 35, 160],
          [x + 35, 160],
          [x + 15, 120],
          [x - 15, 120],
        ],
        p.accentLight,
      ),
    );
  for (const x of [360, 520, 680])
    body.push(circle(x + 40, 640, 34, p.fabric), line(x + 20, 670, x + 10, 790, "#444", 5), line(x + 60, 670, x + 70, 790, "#444", 5));
  return { defs, body };
}

export function bedroom(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  room(p, defs, body, rng);
  const wx = rng.chance(0.5) ? 80 : 880;
  window(wx, 110, 240, 280, body, rng);
  body.push(rect(wx - 40, 80, 50, 360, p.accentLight), rect(wx + 230, 80, 50, 360, p.accentLight));
  body.push(rrect(380, 240, 440, 220, 20, p.wood), rect(360, 430, 480, 80, "#f5f3ee"), rrect(350, 470, 500, 160, 16, p.fabric));
  body.push(rrect(410, 380, 170, 70, 22, "#fbfaf7"), rrect(620, 380, 170, 70, 22, "#fbfaf7"), rect(350, 520, 500, 40, p.accent));
  for (const x of [250, 870]) body.push(rect(x, 470, 90, 90, p.wood), circle(x + 45, 420, 30, p.accentLight), rect(x + 40, 440, 10, 30, "#555"));
  body.push(ellipse(600, 720, 420, 50, p.accentLight, ' opacity="0.7"'));
  return { defs, body };
}

export function bathroom(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  const tile = hsl(rng.int(0, 360), rng.int(0, 20), rng.int(82, 94));
  defs.push(
    `<pattern id="tiles" width="80" height="80" patternUnits="userSpaceOnUse">${rect(0, 0, 80, 80, tile)}${line(0, 79, 80, 79, p.wallShade, 2)}${line(79, 0, 79, 80, p.wallShade, 2)}</pattern>`,
  );
  defs.push(gradient("mirror", [hsl(200, 30, 88), hsl(200, 25, 70)], true));
  body.push(rect(0, 0, W, 800, "url(#tiles)"), rect(0, 640, W, 160, hsl(30, 10, rng.int(55, 70))));
  body.push(rrect(150, 120, 380, 260, 12, "url(#mirror)", ' stroke="#999" stroke-width="6"'));
  body.push(rect(120, 420, 440, 30, "#f3f1ec"), rect(130, 450, 420, 150, p.wood), ellipse(340, 425, 90, 14, "#dde3e6"));
  body.push(rect(330, 380, 12, 40, "#aaa"), rect(700, 60, 380, 580, hsl(195, 40, 85), ' opacity="0.45" stroke="#9ab" stroke-width="6"'));
  body.push(line(980, 100, 980, 200, "#999", 8), circle(940, 210, 40, "#aaa"), rect(600, 300, 60, 180, p.accentLight));
  body.push(plant(640, 640, p));
  return { defs, body };
}

export function office(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  defs.push(gradient("sky", p.sky));
  body.push(rect(0, 0, W, 800, hsl(210, 8, 90)), rect(60, 60, 1080, 420, "url(#sky)"));
  for (let x = 60; x < 1140; x += rng.int(50, 80)) {
    const h = rng.int(100, 330);
    body.push(rect(x, 480 - h, rng.int(30, 60), h, hsl(215, 12, rng.int(60, 75))));
  }
  for (let x = 60; x <= 1140; x += 180) body.push(line(x, 60, x, 480, "#dfe3e6", 10));
  body.push(rect(0, 480, W, 320, hsl(210, 6, rng.int(55, 70))));
  for (const x of [140, 520, 900]) {
    body.push(rect(x, 540, 260, 20, "#f4f4f2"), rect(x + 10, 560, 10, 110, "#555"), rect(x + 240, 560, 10, 110, "#555"));
    body.push(rrect(x + 80, 460, 120, 78, 6, "#222"), rect(x + 135, 538, 10, 8, "#222"), rrect(x + 90, 600, 90, 90, 16, p.accent));
  }
  body.push(plant(1120, 760, p), plant(70, 760, p));
  return { defs, body };
}
