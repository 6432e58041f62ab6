import type { Rng } from "../random";
import { circle, ellipse, hsl, path, rect, svgDoc } from "./primitives";

const SKIN = ["#f1c7a5", "#e0ac7e", "#c68a5a", "#a86b43", "#7a4a2c", "#f5d3b8"];
const HAIR = ["#2b1d14", "#4a3020", "#6b4a2b", "#1a1a1a", "#8c5a2b", "#b9975b"];

/** A flat portrait: coloured disc, shirt, face and one of two hair shapes. */
export function avatar(rng: Rng, index: number, longHair: boolean): string {
  const bg = hsl((index * 57 + rng.int(0, 30)) % 360, 45, 78);
  const shirt = hsl(rng.int(0, 359), 40, 40);
  const skin = SKIN[index % SKIN.length];
  const hair = HAIR[rng.int(0, HAIR.length - 1)];
  const body = [`<clipPath id="c">${circle(200, 200, 200, "#000")}</clipPath>`];
  const parts = [
    circle(200, 200, 200, bg),
    `<g clip-path="url(#c)">`,
    longHair ? rect(112, 150, 176, 190, hair, ' rx="70"') : "",
    path("M60 420 C60 320 120 290 200 290 C280 290 340 320 340 420 Z", shirt),
    rect(175, 250, 50, 50, skin),
    ellipse(200, 190, 78, 92, skin),
    longHair
      ? path("M118 180 C118 100 160 88 200 88 C250 88 286 110 284 190 C262 150 220 130 160 140 C140 150 128 165 118 180 Z", hair)
      : path("M122 170 C120 110 160 92 200 92 C244 92 282 112 278 170 C266 140 238 128 200 128 C164 128 134 140 122 170 Z", hair),
    circle(172, 195, 7, "#2b2b2b"),
    circle(228, 195, 7, "#2b2b2b"),
    path("M176 238 Q200 256 224 238", "none", ' stroke="#8a4b3a" stroke-width="6" stroke-linecap="round"'),
    `</g>`,
  ];
  return svgDoc(400, 400, body, parts, "Foto do corretor");
}

export function logo(): string {
  const parts = [
    rect(0, 0, 480, 120, "#ffffff", ' rx="16"'),
    path("M30 70 L75 28 L120 70 L108 70 L108 100 L42 100 L42 70 Z", "#0f766e"),
    rect(66, 74, 18, 26, "#ffffff"),
    `<text x="140" y="72" font-family="Georgia,serif" font-size="44" font-weight="700" fill="#0f766e">Casa Nova</text>`,
    `<text x="142" y="100" font-family="Arial,sans-serif" font-size="18" letter-spacing="6" fill="#475569">IMÓVEIS</text>`,
  ];
  return svgDoc(480, 120, [], parts, "Casa Nova Imóveis");
}
