import { heightOf } from "./media-settings";

/**
 * What shows where a photo could not be made (source refused, missing, too large, too slow, not
 * an image): a quiet 3:2 frame with a house outline, the size the page reserved. Tiny SVG, so it
 * costs nothing however many photos of a listing are broken.
 */
export function placeholderSvg(width: number): Buffer {
  const h = heightOf(width);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" viewBox="0 0 300 200"><rect width="300" height="200" fill="#e7e5e4"/><path d="M120 120v-28l30-22 30 22v28z" fill="none" stroke="#a8a29e" stroke-width="6" stroke-linejoin="round"/></svg>`,
  );
}
