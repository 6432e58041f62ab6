import path from "node:path";
import { config } from "../config";

/**
 * Widths a photo is served at. 768 is there for phones: Lighthouse's mobile (412 px at 1.75×)
 * needs 721 px for a full-width photo, and the next width up decides the LCP image's weight.
 */
export const PHOTO_WIDTHS = [320, 480, 640, 768, 960, 1280, 1600] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];

/** Every variant is cropped to 3:2, so a page can set width and height before any byte arrives. */
export const heightOf = (w: number) => Math.round((w * 2) / 3);

export type PhotoFormat = "webp" | "jpeg";

export const mediaCacheDir = () => config().MEDIA_CACHE_DIR ?? path.join(config().DATA_DIR, "media-cache");
export const demoPhotosDir = () => config().DEMO_PHOTOS_DIR ?? path.join(config().DATA_DIR, "demo-photos");

/** The site path the demo's photographs are served at (from `demoPhotosDir()`). */
export const DEMO_PHOTO_PATH = "/_media/demo/";
