import type { DbOrTx } from "../client";
import { buildings, typologies, units } from "../schema";
import { money, type Rng } from "./random";

/**
 * A launch (lançamento) in Vila Mariana: one building, three typologies and their units. There is
 * no REST verb for these (spec 1 §2.1), so they are inserted as the CRM or an import would.
 */
const BUILDING = {
  name: "Residencial Jardim Mariana",
  description:
    "Torre única com 16 andares a 400 m do metrô Ana Rosa. Apartamentos de 2 e 3 dormitórios e coberturas duplex, " +
    "lazer completo no térreo e rooftop com piscina.",
  developer: "Construtora Horizonte Verde",
  publisher: "Horizonte Incorporações",
  administrator: "Atlas Administração de Condomínios",
  launchDate: "2025-03-15",
  openingDate: "2027-12-01",
  numberOfTowers: 1,
  buildingPermit: "Alvará de Aprovação e Execução nº 2024/18.452-00",
  totalUnits: 41,
  floors: 16,
  amenities: { pool: true, gym: true, party_room: true, playground: true, concierge_24h: true, elevator: true, coworking: true },
  street: "Rua Joaquim Távora",
  number: "1180",
  neighborhood: "Vila Mariana",
  city: "São Paulo",
  state: "SP",
  postalCode: "04015-012",
  latitude: -23.5887,
  longitude: -46.6361,
};

export const TYPOLOGIES = [
  {
    name: "2 dormitórios com varanda",
    code: "T2",
    reference: "Finais 1 e 2",
    bedrooms: 2,
    bathrooms: 2,
    suites: 1,
    totalArea: 98.4,
    privateArea: 68.5,
    parkingSpaces: 1,
    basePrice: 890000,
    features: { gourmet_balcony: true, service_area: true },
  },
  {
    name: "3 dormitórios com suíte",
    code: "T3",
    reference: "Final 3",
    bedrooms: 3,
    bathrooms: 3,
    suites: 2,
    totalArea: 128.7,
    privateArea: 92,
    parkingSpaces: 2,
    basePrice: 1290000,
    features: { gourmet_balcony: true, barbecue: true, closet: true },
  },
  {
    name: "Cobertura duplex",
    code: "CD",
    reference: "Finais 161 e 162",
    bedrooms: 3,
    bathrooms: 4,
    suites: 3,
    totalArea: 248,
    privateArea: 184,
    parkingSpaces: 3,
    basePrice: 2650000,
    features: { private_pool: true, gourmet_balcony: true, barbecue: true },
  },
] as const;

export type DevTypology = (typeof TYPOLOGIES)[number] & { id: string };
export type Development = { building: typeof BUILDING & { id: string }; typologies: DevTypology[]; units: number };

export async function createDevelopment(db: DbOrTx, tenantId: string, assetBase: string, rng: Rng): Promise<Development> {
  const [b] = await db
    .insert(buildings)
    .values({ ...BUILDING, tenantId, portfolio: ["facade-03.svg", "pool-01.svg", "living-room-02.svg"].map((f) => `${assetBase}/demo/${f}`) })
    .returning({ id: buildings.id });
  const rows = await db
    .insert(typologies)
    .values(
      TYPOLOGIES.map((t, order) => ({
        tenantId,
        buildingId: b.id,
        order,
        name: t.name,
        code: t.code,
        reference: t.reference,
        description: `${t.name} com ${t.privateArea.toFixed(0)} m² privativos no ${BUILDING.name}.`,
        bedrooms: t.bedrooms,
        bathrooms: t.bathrooms,
        suites: t.suites,
        parkingSpaces: t.parkingSpaces,
        totalArea: money(t.totalArea),
        privateArea: money(t.privateArea),
        basePrice: money(t.basePrice),
        pricePerSqm: money(t.basePrice / t.privateArea),
        features: t.features,
        totalUnits: order === 0 ? 26 : order === 1 ? 13 : 2,
        expectedDelivery: "Dezembro de 2027",
        constructionStatus: "under_construction",
      })),
    )
    .returning({ id: typologies.id });

  const unitRows: (typeof units.$inferInsert)[] = [];
  const unit = (typology: number, floor: number, final: number) => {
    const status = rng.weighted([
      ["available", 50],
      ["reserved", 15],
      ["sold", 35],
    ] as const);
    const base = TYPOLOGIES[typology].basePrice * (1 + 0.008 * (floor - 3));
    unitRows.push({
      tenantId,
      typologyId: rows[typology].id,
      unitNumber: `${floor}${final}`,
      blockTower: "Torre única",
      floor: String(floor),
      status,
      price: money(base, 1000),
      reservation: status === "available" ? null : { buyerName: "Comprador da demonstração", since: `2025-${String(rng.int(4, 12)).padStart(2, "0")}-10` },
    });
  };
  for (let floor = 3; floor <= 15; floor++) {
    unit(0, floor, 1);
    unit(0, floor, 2);
    unit(1, floor, 3);
  }
  unit(2, 16, 1);
  unit(2, 16, 2);
  await db.insert(units).values(unitRows);
  return {
    building: { ...BUILDING, id: b.id },
    typologies: TYPOLOGIES.map((t, i) => ({ ...t, id: rows[i].id })),
    units: unitRows.length,
  };
}
