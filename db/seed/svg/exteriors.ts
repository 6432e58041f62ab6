import type { Rng } from "../random";
import { circle, ellipse, gradient, hsl, line, palette, poly, rect, rrect, type Palette } from "./primitives";

export type Scene = { defs: string[]; body: string[] };

const W = 1200;
const H = 800;

function sky(p: Palette, body: string[], defs: string[]) {
  defs.push(gradient("sky", p.sky));
  body.push(rect(0, 0, W, H, "url(#sky)"));
}

function tree(x: number, ground: number, size: number, p: Palette): string {
  return (
    rect(x - size * 0.08, ground - size * 1.1, size * 0.16, size * 1.1, "#6b4a2b") +
    circle(x, ground - size * 1.25, size * 0.55, p.leaf) +
    circle(x - size * 0.3, ground - size * 1.05, size * 0.4, p.leafLight) +
    circle(x + size * 0.32, ground - size * 1.0, size * 0.38, p.leaf)
  );
}

function palm(x: number, ground: number, h: number, p: Palette): string {
  const top = ground - h;
  const fronds = [-60, -25, 10, 45, 80].map((dx) =>
    poly(
      [
        [x, top],
        [x + dx * 1.6, top + 30 + Math.abs(dx) * 0.5],
        [x + dx * 1.2, top + 10],
      ],
      p.leaf,
    ),
  );
  return (
    poly(
      [
        [x - 8, ground],
        [x + 8, ground],
        [x + 4, top],
        [x - 3, top],
      ],
      "#8a6a45",
    ) + fronds.join("")
  );
}

export function facade(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  sky(p, body, defs);
  for (let x = -40; x < W; x += rng.int(110, 180)) {
    const h = rng.int(220, 420);
    body.push(rect(x, 640 - h, rng.int(90, 150), h, hsl(210, 10, rng.int(72, 82))));
  }
  const bw = rng.int(380, 520);
  const bx = (W - bw) / 2 + rng.int(-120, 120);
  const floors = rng.int(9, 13);
  const top = 640 - floors * 50 - 40;
  const tone = hsl(rng.int(0, 360), rng.int(5, 25), rng.int(55, 85));
  defs.push(gradient("glass", [hsl(205, 45, 70), hsl(205, 40, 45)]));
  body.push(rect(bx, top, bw, 640 - top, tone), rect(bx - 10, top - 14, bw + 20, 16, p.wallShade));
  // One pattern cell per window keeps the file small however many floors the building has.
  const cols = Math.floor(bw / 90);
  const cell = bw / cols;
  defs.push(
    `<pattern id="win" x="${Math.round(bx)}" y="${top + 30}" width="${cell}" height="50" patternUnits="userSpaceOnUse">` +
      `${rect((cell - 70) / 2, 0, 70, 32, "url(#glass)")}${rect(0, 32, cell, 6, p.wallShade)}</pattern>`,
  );
  body.push(rect(bx, top + 30, bw, floors * 50 - 12, "url(#win)"));
  body.push(rect(bx + bw / 2 - 50, 560, 100, 80, "#2f3a44"), rect(bx + bw / 2 - 70, 548, 140, 12, p.accent));
  body.push(rect(0, 640, W, 60, "#b9b4ab"), rect(0, 700, W, 100, "#4a4e54"));
  for (let x = 40; x < W; x += 160) body.push(rect(x, 748, 70, 6, "#e8e2c8"));
  for (const x of [bx - 90, bx + bw + 90, 90, W - 90]) body.push(tree(x, 660, rng.int(70, 100), p));
  return { defs, body };
}

export function houseFacade(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  sky(p, body, defs);
  body.push(ellipse(300, 620, 500, 120, p.leafLight), ellipse(950, 630, 520, 110, p.leaf));
  body.push(rect(0, 600, W, 200, hsl(110, 35, 45)));
  const wall = hsl(rng.int(20, 50), rng.int(10, 40), rng.int(80, 92));
  const modern = rng.chance(0.5);
  const hx = rng.int(220, 320);
  const hw = rng.int(620, 720);
  body.push(rect(hx, 360, hw, 260, wall));
  if (modern) {
    body.push(
      rect(hx - 30, 340, hw + 60, 24, p.wallShade),
      rect(hx + hw * 0.55, 240, hw * 0.45, 120, wall),
      rect(hx + hw * 0.55 - 20, 226, hw * 0.45 + 40, 18, p.wallShade),
    );
    body.push(rect(hx + hw * 0.6, 262, hw * 0.35, 80, "url(#glass)"));
  } else {
    body.push(
      poly(
        [
          [hx - 40, 370],
          [hx + hw / 2, 210],
          [hx + hw + 40, 370],
        ],
        hsl(rng.int(5, 20), 55, 40),
      ),
    );
  }
  defs.push(gradient("glass", [hsl(205, 45, 72), hsl(205, 35, 48)]));
  body.push(rect(hx + 40, 420, 180, 110, "url(#glass)"), line(hx + 130, 420, hx + 130, 530, wall, 6));
  body.push(rect(hx + 270, 430, 80, 190, p.wood), circle(hx + 335, 530, 5, "#d9c27a"));
  const gx = hx + hw - 250;
  body.push(rect(gx, 450, 210, 170, hsl(0, 0, 62)));
  for (let y = 465; y < 620; y += 22) body.push(line(gx, y, gx + 210, y, hsl(0, 0, 52), 3));
  body.push(
    poly(
      [
        [hx + 270, 620],
        [hx + 350, 620],
        [hx + 420, 800],
        [hx + 200, 800],
      ],
      "#cfc6b5",
    ),
  );
  for (let x = 0; x < W; x += 60) body.push(rrect(x, 660, 54, 40, 18, p.leaf));
  body.push(tree(110, 640, 110, p), tree(W - 100, 640, 95, p));
  return { defs, body };
}

export function pool(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  sky(p, body, defs);
  body.push(rect(0, 250, W, 230, hsl(30, 15, rng.int(80, 90))));
  for (let x = 60; x < W; x += 140) body.push(rect(x, 300, 90, 120, "url(#glass)"));
  defs.push(gradient("glass", [hsl(205, 45, 72), hsl(205, 35, 48)]));
  body.push(rect(0, 480, W, 320, hsl(35, 30, rng.int(70, 80))));
  defs.push(gradient("water", [hsl(190, 70, 55), hsl(200, 75, 38)]));
  body.push(
    poly(
      [
        [180, 540],
        [1020, 540],
        [1120, 760],
        [80, 760],
      ],
      "url(#water)",
    ),
  );
  for (let i = 0; i < 7; i++) {
    const y = 570 + i * 28;
    body.push(`<path d="M${160 - i * 12} ${y} q40 -10 80 0 t80 0 t80 0 t80 0" stroke="#ffffff" stroke-opacity="0.45" stroke-width="3" fill="none"/>`);
  }
  for (const x of [140, 380, 820]) {
    body.push(
      poly(
        [
          [x, 500],
          [x + 150, 470],
          [x + 160, 490],
          [x + 10, 520],
        ],
        "#f4f1ea",
      ),
      line(x + 20, 515, x + 20, 535, "#777", 4),
    );
  }
  body.push(
    line(620, 520, 620, 380, "#555", 5),
    poly(
      [
        [520, 400],
        [620, 340],
        [720, 400],
      ],
      p.accent,
    ),
  );
  body.push(palm(60, 520, 320, p), palm(1140, 520, 280, p), circle(980, 120, 50, "#fff6c8", ' opacity="0.8"'));
  return { defs, body };
}

export function land(rng: Rng): Scene {
  const p = palette(rng);
  const defs: string[] = [];
  const body: string[] = [];
  sky(p, body, defs);
  body.push(ellipse(250, 520, 520, 160, hsl(120, 25, 55)), ellipse(950, 530, 560, 140, hsl(110, 30, 50)));
  defs.push(gradient("grass", [hsl(rng.int(80, 100), 45, 55), hsl(rng.int(90, 110), 45, 38)]));
  body.push(rect(0, 500, W, 300, "url(#grass)"));
  for (let x = 30; x < W; x += 90) body.push(rect(x, 560, 10, 80, "#7b5b3a"));
  body.push(rect(0, 580, W, 6, "#7b5b3a"), rect(0, 615, W, 6, "#7b5b3a"));
  for (let i = 0; i < 6; i++) body.push(tree(rng.int(80, 1120), rng.int(500, 540), rng.int(40, 70), p));
  body.push(rect(820, 600, 12, 140, "#6b4a2b"), rect(740, 560, 180, 80, "#fbfaf4", ' stroke="#333" stroke-width="4"'));
  body.push(`<text x="830" y="610" font-family="Arial,sans-serif" font-size="30" font-weight="700" text-anchor="middle" fill="${p.accent}">VENDE-SE</text>`);
  return { defs, body };
}
