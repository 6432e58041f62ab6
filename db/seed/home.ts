import { CITIES, type City, type Neighborhood } from "./places";
import { digits, type Rng } from "./random";

export type HomeType = "apartment" | "studio" | "penthouse" | "house" | "condo_house" | "office" | "commercial" | "land";
export type Deal = "sale" | "rental";

/** One generated property, before it becomes an API payload. Areas in m², money in BRL. */
export type Home = {
  city: City;
  nb: Neighborhood;
  type: HomeType;
  bedrooms: number | null;
  bathrooms: number | null;
  suites: number | null;
  parking: number | null;
  privateArea: number | null;
  totalArea: number;
  features: string[];
  amenities: string[];
  street: string;
  number: string;
  complement: string | null;
  salePrice: number;
  rent: number;
  condoFee: number | null;
  iptuYearly: number;
  deals: Deal[];
};

const HOUSE_AREAS = new Set(["Pampulha", "Buritis", "Barra da Tijuca", "Brooklin", "Santana", "Tatuapé", "Sion"]);
const LAND_AREAS = new Set(["Pampulha", "Buritis", "Barra da Tijuca", "Santana", "Tatuapé"]);
const BUSINESS_AREAS = new Set(["Itaim Bibi", "Jardins", "Pinheiros", "Funcionários", "Botafogo", "Savassi", "Brooklin"]);

function pickType(rng: Rng, nb: Neighborhood): HomeType {
  const n = nb.name;
  return rng.weighted<HomeType>([
    ["apartment", 52],
    ["studio", n === "Copacabana" || BUSINESS_AREAS.has(n) ? 12 : 5],
    ["penthouse", 6],
    ["house", HOUSE_AREAS.has(n) ? 22 : n === "Copacabana" || n === "Ipanema" || n === "Leblon" ? 0 : 5],
    ["condo_house", n === "Barra da Tijuca" ? 25 : HOUSE_AREAS.has(n) ? 8 : 0],
    ["office", BUSINESS_AREAS.has(n) ? 12 : 3],
    ["commercial", 4],
    ["land", LAND_AREAS.has(n) ? 7 : 0],
  ]);
}

const round = (v: number, step: number) => Math.round(v / step) * step;

function rooms(rng: Rng, type: HomeType) {
  switch (type) {
    case "studio":
      return { bedrooms: 1, suites: 0, bathrooms: 1, parking: rng.int(0, 1), privateArea: rng.int(24, 42) };
    case "apartment": {
      const bedrooms = rng.weighted([
        [1, 15],
        [2, 35],
        [3, 35],
        [4, 15],
      ] as const);
      const suites = bedrooms >= 3 ? rng.int(1, bedrooms - 1) : rng.int(0, 1);
      const bathrooms = suites + (bedrooms > suites ? 1 : 0) + (rng.chance(0.4) ? 1 : 0);
      const parking = bedrooms >= 3 ? rng.int(1, 3) : rng.int(0, 1) + (bedrooms === 2 ? 1 : 0);
      return { bedrooms, suites, bathrooms, parking, privateArea: round(28 + bedrooms * rng.between(20, 34), 1) };
    }
    case "penthouse": {
      const bedrooms = rng.int(3, 4);
      const suites = rng.int(2, bedrooms);
      return { bedrooms, suites, bathrooms: suites + 1, parking: rng.int(2, 4), privateArea: rng.int(160, 380) };
    }
    case "house":
    case "condo_house": {
      const bedrooms = type === "house" ? rng.int(2, 5) : rng.int(3, 5);
      const suites = rng.int(1, bedrooms);
      const privateArea = type === "house" ? rng.int(110, 400) : rng.int(220, 600);
      return { bedrooms, suites, bathrooms: suites + 1, parking: rng.int(2, 4), privateArea };
    }
    case "office":
      return { bedrooms: null, suites: null, bathrooms: rng.int(1, 2), parking: rng.int(0, 3), privateArea: rng.int(30, 220) };
    case "commercial":
      return { bedrooms: null, suites: null, bathrooms: rng.int(1, 2), parking: rng.int(0, 2), privateArea: rng.int(60, 400) };
    case "land":
      return { bedrooms: null, suites: null, bathrooms: null, parking: null, privateArea: null };
  }
}

const FEATURE_ODDS: Record<HomeType, [string, number][]> = {
  apartment: [
    ["service_area", 0.8],
    ["air_conditioning", 0.4],
    ["closet", 0.35],
    ["home_office", 0.2],
    ["pets_allowed", 0.45],
    ["furnished", 0.12],
  ],
  studio: [
    ["furnished", 0.5],
    ["air_conditioning", 0.5],
    ["balcony", 0.3],
    ["pets_allowed", 0.4],
  ],
  penthouse: [
    ["gourmet_balcony", 0.85],
    ["private_pool", 0.5],
    ["barbecue", 0.6],
    ["closet", 0.8],
    ["air_conditioning", 0.6],
    ["home_office", 0.4],
  ],
  house: [
    ["backyard", 0.8],
    ["private_pool", 0.35],
    ["barbecue", 0.6],
    ["service_area", 0.9],
    ["closet", 0.4],
    ["home_office", 0.3],
    ["pets_allowed", 0.7],
  ],
  condo_house: [
    ["backyard", 0.7],
    ["private_pool", 0.65],
    ["barbecue", 0.7],
    ["service_area", 0.9],
    ["closet", 0.7],
    ["home_office", 0.4],
    ["pets_allowed", 0.7],
  ],
  office: [
    ["air_conditioning", 0.85],
    ["furnished", 0.2],
  ],
  commercial: [["air_conditioning", 0.5]],
  land: [],
};

const AMENITIES = ["pool", "gym", "party_room", "playground", "concierge_24h", "elevator", "sauna", "coworking", "sports_court"];

function features(rng: Rng, type: HomeType, nb: Neighborhood, bedrooms: number | null): string[] {
  const out = FEATURE_ODDS[type].filter(([, p]) => rng.chance(p)).map(([f]) => f);
  if (type === "apartment" && bedrooms && bedrooms >= 2) {
    if (rng.chance(0.4)) out.push("gourmet_balcony", ...(rng.chance(0.6) ? ["barbecue"] : []));
    else if (rng.chance(0.5)) out.push("balcony");
  }
  if (nb.beach && ["apartment", "penthouse", "studio"].includes(type) && rng.chance(type === "penthouse" ? 0.7 : 0.35)) out.push("sea_view");
  return out;
}

const TYPE_PRICE_FACTOR: Record<HomeType, number> = {
  apartment: 1,
  studio: 1.15,
  penthouse: 1.15,
  house: 0.85,
  condo_house: 0.95,
  office: 0.8,
  commercial: 0.9,
  land: 0.45,
};

export function makeHome(rng: Rng): Home {
  const city = rng.weighted(CITIES.map((c) => [c, c.weight] as const));
  const nb = rng.pick(city.neighborhoods);
  const type = pickType(rng, nb);
  const r = rooms(rng, type);
  const lot = type === "house" ? rng.int(180, 600) : type === "condo_house" ? rng.int(360, 1000) : type === "land" ? rng.int(250, 1200) : 0;
  const totalArea = lot || round((r.privateArea ?? 0) * rng.between(1.2, 1.5), 1);
  const priced = type === "land" ? totalArea : (r.privateArea ?? 0) * (type === "house" ? 1.1 : 1);
  const rawSale = priced * nb.pricePerSqm * TYPE_PRICE_FACTOR[type] * rng.between(0.85, 1.15);
  const salePrice = round(rawSale, rawSale < 1_000_000 ? 5_000 : 10_000);
  const yieldRate = type === "studio" ? 0.0055 : type === "office" || type === "commercial" ? 0.006 : rng.between(0.0037, 0.0048);
  const inCondo = ["apartment", "studio", "penthouse", "condo_house", "office"].includes(type);
  const deals: Deal[] =
    type === "land"
      ? ["sale"]
      : rng.weighted<Deal[]>([
          [["sale"], 60],
          [["rental"], 29],
          [["sale", "rental"], 11],
        ]);
  const street = rng.pick(nb.streets);
  const unitFloor = rng.int(1, 22);
  return {
    city,
    nb,
    type,
    ...r,
    totalArea,
    features: features(rng, type, nb, r.bedrooms),
    amenities: inCondo && type !== "office" ? rng.some(AMENITIES, rng.int(2, 5)) : [],
    street,
    number: String(street.startsWith("Avenida") ? rng.int(100, 4800) : rng.int(10, 1600)),
    complement:
      type === "office"
        ? `Conjunto ${unitFloor}${rng.int(0, 1)}${rng.int(1, 9)}`
        : ["apartment", "studio"].includes(type)
          ? `Apto ${unitFloor}${rng.int(1, 4)}`
          : type === "penthouse"
            ? `Cobertura ${unitFloor + 1}01`
            : null,
    salePrice,
    rent: Math.max(1200, round(salePrice * yieldRate, 50)),
    condoFee: inCondo ? round((r.privateArea ?? 0) * rng.between(9, 17) * (nb.pricePerSqm > 12000 ? 1.2 : 1), 10) : null,
    iptuYearly: round(salePrice * rng.between(0.0025, 0.0045), 10),
    deals,
  };
}

export const cep = (rng: Rng, nb: Neighborhood) => `${rng.pick(nb.cep)}-${digits(rng, 3)}`;
export const near = (rng: Rng, v: number) => Number((v + rng.between(-0.006, 0.006)).toFixed(6));
