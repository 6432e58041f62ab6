import type { Deal, Home, HomeType } from "./home";

/** English and Spanish versions for the listings that carry manual translations. */
type Lang = "en" | "es";

const TYPE: Record<Lang, Record<HomeType, string>> = {
  en: {
    apartment: "Apartment",
    studio: "Studio",
    penthouse: "Penthouse",
    house: "House",
    condo_house: "House in a gated community",
    office: "Office",
    commercial: "Retail space",
    land: "Plot",
  },
  es: {
    apartment: "Apartamento",
    studio: "Estudio",
    penthouse: "Penthouse",
    house: "Casa",
    condo_house: "Casa en condominio cerrado",
    office: "Oficina",
    commercial: "Local comercial",
    land: "Terreno",
  },
};

const WORDS = {
  en: {
    sale: "for sale",
    rental: "for rent",
    bed: ["bedroom", "bedrooms"],
    bath: ["bathroom", "bathrooms"],
    park: ["parking space", "parking spaces"],
    suite: ["en-suite", "en-suites"],
    with: "with",
    in: "in",
    seaView: "sea view",
    pool: "private pool",
    gourmet: "gourmet balcony",
    area: "m² of private area",
    plot: "m² plot",
    amenities: "Building amenities:",
    near: "Close to shops, restaurants and public transport in",
    beach: "A short walk from the beach.",
    saleNote: "Bank financing accepted.",
    cashNote: "Cash sale; offers considered.",
    rentNote: "Standard 30-month lease; guarantor, rent insurance or deposit.",
    visit: "Book a visit with Casa Nova Imóveis.",
    and: "and",
  },
  es: {
    sale: "en venta",
    rental: "en alquiler",
    bed: ["dormitorio", "dormitorios"],
    bath: ["baño", "baños"],
    park: ["cochera", "cocheras"],
    suite: ["suite", "suites"],
    with: "con",
    in: "en",
    seaView: "vista al mar",
    pool: "piscina privada",
    gourmet: "balcón gourmet",
    area: "m² de superficie privada",
    plot: "m² de terreno",
    amenities: "El edificio ofrece:",
    near: "Cerca de comercios, restaurantes y transporte en",
    beach: "A pocos pasos de la playa.",
    saleNote: "Acepta financiación bancaria.",
    cashNote: "Venta al contado; se estudian ofertas.",
    rentNote: "Contrato de 30 meses; garante, seguro de alquiler o depósito.",
    visit: "Agende su visita con Casa Nova Imóveis.",
    and: "y",
  },
};

const AMENITY: Record<Lang, Record<string, string>> = {
  en: {
    pool: "pool",
    gym: "gym",
    party_room: "party room",
    playground: "playground",
    concierge_24h: "24-hour concierge",
    elevator: "lift",
    sauna: "sauna",
    coworking: "coworking space",
    sports_court: "sports court",
  },
  es: {
    pool: "piscina",
    gym: "gimnasio",
    party_room: "salón de fiestas",
    playground: "juegos infantiles",
    concierge_24h: "portería 24 h",
    elevator: "ascensor",
    sauna: "sauna",
    coworking: "coworking",
    sports_court: "cancha polideportiva",
  },
};

const count = (n: number, [one, many]: string[]) => `${n} ${n === 1 ? one : many}`;

export function translate(h: Home, deal: Deal, financing: boolean, lang: Lang): { title: string; description: string } {
  const w = WORDS[lang];
  const f = new Set(h.features);
  const withRooms = h.bedrooms !== null && h.type !== "studio";
  const extra = f.has("sea_view") ? w.seaView : f.has("private_pool") ? w.pool : f.has("gourmet_balcony") ? w.gourmet : "";
  const perks = [withRooms ? count(h.bedrooms!, w.bed) : "", extra].filter(Boolean).join(` ${w.and} `);
  const size = h.type === "land" ? `${h.totalArea} m²` : withRooms ? "" : `${h.privateArea} m²`;
  const title = [TYPE[lang][h.type], size, w[deal], perks && `${w.with} ${perks}`, w.in, h.nb.name].filter(Boolean).join(" ");

  const facts = [
    h.type === "land" ? `${h.totalArea} ${w.plot}` : `${h.privateArea} ${w.area}`,
    h.bedrooms ? count(h.bedrooms, w.bed) : "",
    h.suites ? count(h.suites, w.suite) : "",
    h.bathrooms ? count(h.bathrooms, w.bath) : "",
    h.parking ? count(h.parking, w.park) : "",
  ].filter(Boolean);
  const amenities = h.amenities.map((a) => AMENITY[lang][a]);
  const description = [
    `${TYPE[lang][h.type]}: ${facts.join(", ")}.`,
    amenities.length ? `${w.amenities} ${amenities.join(", ")}.` : "",
    `${w.near} ${h.nb.name}, ${h.city.city}.${h.nb.beach ? ` ${w.beach}` : ""}`,
    deal === "rental" ? w.rentNote : financing ? w.saleNote : w.cashNote,
    w.visit,
  ]
    .filter(Boolean)
    .join("\n\n");
  return { title, description };
}
