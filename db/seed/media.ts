import type { HomeType } from "./home";
import { photographsOf, type PhotoCategory } from "./image-catalog";
import { DEMO_PHOTO_PATH } from "../../lib/media/media-settings";
import type { Rng } from "./random";

/** Which rooms a listing of each type shows, cover first. */
const SHOTS: Record<HomeType, PhotoCategory[]> = {
  apartment: ["living_room", "kitchen", "bedroom", "bedroom", "bathroom", "facade", "pool"],
  studio: ["living_room", "kitchen", "bathroom", "facade"],
  penthouse: ["living_room", "pool", "kitchen", "bedroom", "bedroom", "bathroom", "facade", "bedroom"],
  house: ["house_facade", "living_room", "kitchen", "bedroom", "bedroom", "bathroom", "pool"],
  condo_house: ["house_facade", "pool", "living_room", "kitchen", "bedroom", "bedroom", "bathroom", "bedroom"],
  office: ["office", "office", "facade", "bathroom"],
  commercial: ["office", "facade", "bathroom"],
  land: ["land", "land", "land"],
};

export type MediaInput = { url: string; alt: string; category: string; isPrimary: boolean };

/** 3 to 8 photographs from the generated set (`generate-photos.ts`); a pool only when the home or its building has one. */
export function photosFor(rng: Rng, type: HomeType, hasPool: boolean, assetBase: string, where: string): MediaInput[] {
  const wanted = SHOTS[type].filter((c) => c !== "pool" || hasPool);
  const count = Math.min(wanted.length, Math.max(3, rng.int(3, 8)));
  const used = new Set<string>();
  return wanted.slice(0, count).map((category, i) => {
    const options = photographsOf(category).filter((p) => !used.has(p.file));
    const photo = rng.pick(options.length ? options : photographsOf(category));
    used.add(photo.file);
    return {
      url: `${assetBase}${DEMO_PHOTO_PATH}${photo.file}`,
      alt: `${photo.alt} ${where}`,
      category: category === "house_facade" ? "facade" : category,
      isPrimary: i === 0,
    };
  });
}
