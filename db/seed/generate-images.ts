/**
 * Draws the demo pictures into `public/demo/`: run once with `npx tsx db/seed/generate-images.ts`
 * and commit the output. Deterministic (seeded), so re-running produces the same files.
 */
import fs from "node:fs";
import path from "node:path";
import { DEMO_AVATARS, DEMO_LOGO, DEMO_PHOTOS } from "./image-catalog";
import { createRng } from "./random";
import { avatar, logo } from "./svg/avatar";
import { SCENES } from "./svg/scenes";
import { svgDoc } from "./svg/primitives";

const MAX_BYTES = 6 * 1024;
const outDir = path.join(process.cwd(), "public", "demo");
fs.mkdirSync(outDir, { recursive: true });

const files: [string, string][] = [];
DEMO_PHOTOS.forEach((photo, i) => {
  const { defs, body } = SCENES[photo.category](createRng(1000 + i * 7919));
  files.push([photo.file, svgDoc(1200, 800, defs, body, photo.alt)]);
});
DEMO_AVATARS.forEach((file, i) => {
  files.push([file, avatar(createRng(50 + i), i, i % 2 === 0)]);
});
files.push([DEMO_LOGO, logo()]);

for (const [file, svg] of files) {
  const bytes = Buffer.byteLength(svg);
  if (bytes > MAX_BYTES) throw new Error(`${file} is ${bytes} bytes; keep demo pictures under ${MAX_BYTES}.`);
  fs.writeFileSync(path.join(outDir, file), svg);
}
console.log(`Wrote ${files.length} files to ${path.relative(process.cwd(), outDir)}/`);
