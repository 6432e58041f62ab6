/**
 * The generated demo pictures in `public/demo/`: `generate-images.ts` draws them, the seed points
 * listings and members at them. One list, so the two cannot drift apart.
 */
export type PhotoCategory = "facade" | "house_facade" | "living_room" | "kitchen" | "bedroom" | "bathroom" | "pool" | "office" | "land";

export type DemoPhoto = { file: string; category: PhotoCategory; alt: string };

const series = (category: PhotoCategory, count: number, alt: string): DemoPhoto[] =>
  Array.from({ length: count }, (_, i) => ({
    file: `${category.replace("_", "-")}-${String(i + 1).padStart(2, "0")}.svg`,
    category,
    alt,
  }));

export const DEMO_PHOTOS: DemoPhoto[] = [
  ...series("facade", 4, "Fachada do edifício"),
  ...series("house_facade", 3, "Fachada da casa"),
  ...series("living_room", 4, "Sala de estar"),
  ...series("kitchen", 3, "Cozinha"),
  ...series("bedroom", 4, "Dormitório"),
  ...series("bathroom", 2, "Banheiro"),
  ...series("pool", 2, "Área de lazer com piscina"),
  ...series("office", 2, "Sala comercial"),
  ...series("land", 3, "Terreno"),
];

/**
 * The demo's photographs: 400 JPEGs of 2,400 × 1,600 (1–3 MB each, what a portal feed brings),
 * drawn at seed time into the data folder by `generate-photos.ts` (never committed) and served at
 * `/_media/demo/{file}`. As many of each room as listings show it.
 */
const PHOTO_COUNTS: Record<PhotoCategory, number> = {
  facade: 40,
  house_facade: 30,
  living_room: 70,
  kitchen: 55,
  bedroom: 90,
  bathroom: 45,
  pool: 30,
  office: 20,
  land: 20,
};

export const DEMO_PHOTOGRAPHS: DemoPhoto[] = (Object.keys(PHOTO_COUNTS) as PhotoCategory[]).flatMap((category) =>
  series(category, PHOTO_COUNTS[category], DEMO_PHOTOS.find((p) => p.category === category)!.alt).map((p, i) => ({
    ...p,
    file: `${category.replace("_", "-")}-${String(i + 1).padStart(3, "0")}.jpg`,
  })),
);

export const photographsOf = (category: PhotoCategory) => DEMO_PHOTOGRAPHS.filter((p) => p.category === category);

export const DEMO_AVATARS = Array.from({ length: 6 }, (_, i) => `avatar-${i + 1}.svg`);

export const DEMO_LOGO = "logo.svg";

export const photosOf = (category: PhotoCategory) => DEMO_PHOTOS.filter((p) => p.category === category);
