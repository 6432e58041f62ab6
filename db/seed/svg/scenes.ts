import type { PhotoCategory } from "../image-catalog";
import type { createRng } from "../random";
import { facade, houseFacade, land, pool, type Scene } from "./exteriors";
import { bathroom, bedroom, kitchen, livingRoom, office } from "./interiors";

/** The drawing of each kind of room: the SVG pictures and the generated photographs start from it. */
export const SCENES: Record<PhotoCategory, (rng: ReturnType<typeof createRng>) => Scene> = {
  facade,
  house_facade: houseFacade,
  living_room: livingRoom,
  kitchen,
  bedroom,
  bathroom,
  pool,
  office,
  land,
};
