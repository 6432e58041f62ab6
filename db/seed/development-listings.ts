import type { Development, DevTypology } from "./development";
import { photosFor } from "./media";
import { money, type Rng } from "./random";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * One property per typology, linked to the building, each with a primary-market sale listing.
 * Bedrooms, areas and price follow the typology (spec 2 §2.2: development listings take them from it).
 */
export function developmentPayloads(dev: Development, brokerId: string, assetBase: string, rng: Rng) {
  const b = dev.building;
  return dev.typologies.map((t: DevTypology, i) => {
    const penthouse = t.code === "CD";
    const features = Object.keys(t.features);
    return {
      property: {
        title: `${b.name} — ${t.name}`,
        type: penthouse ? "penthouse" : "apartment",
        bedrooms: t.bedrooms,
        bathrooms: t.bathrooms,
        suites: t.suites,
        parkingSpaces: t.parkingSpaces,
        totalArea: money(t.totalArea),
        privateArea: money(t.privateArea),
        usableArea: money(t.privateArea),
        features,
        condominiumFee: money(t.privateArea * 14, 10),
        propertyTax: money(t.basePrice * 0.003, 10),
        assignedToId: brokerId,
        buildingId: b.id,
        internalNotes: "Lançamento: tabela de preços válida até o fim do mês; comissão conforme contrato com a incorporadora.",
        media: photosFor(rng, penthouse ? "penthouse" : "apartment", true, assetBase, "no Residencial Jardim Mariana"),
        virtualTourUrl: i === 0 ? "https://tour.casanovaimoveis.example/jardim-mariana-decorado" : null,
      },
      location: {
        street: b.street,
        number: b.number,
        neighborhood: b.neighborhood,
        city: b.city,
        state: b.state,
        postalCode: b.postalCode,
        latitude: b.latitude,
        longitude: b.longitude,
      },
      listings: [
        {
          title: `Lançamento na Vila Mariana: ${penthouse ? "cobertura duplex" : `apartamento de ${t.bedrooms} dormitórios`} com ${t.privateArea.toFixed(0)} m²`,
          description:
            `${t.name} no ${b.name}, ${t.privateArea.toFixed(0)} m² privativos, ${plural(t.suites, "suíte", "suítes")} e ` +
            `${plural(t.parkingSpaces, "vaga", "vagas")} de garagem. ` +
            `Entrega prevista para dezembro de 2027, com lazer completo: piscina, academia, salão de festas, playground e coworking.\n\n` +
            "Condições especiais de lançamento, com entrada parcelada durante a obra. Consulte a disponibilidade de unidades.",
          type: "sale",
          price: money(t.basePrice),
          stage: "active",
          status: "available",
          isPrimaryMarket: "true",
          typologyId: t.id,
          typeSpecificData: { downPayment: Math.round(t.basePrice * 0.1), financingAllowed: true, condominiumFee: Math.round(t.privateArea * 14) },
          translations: {
            en: {
              title: `New development in Vila Mariana: ${penthouse ? "duplex penthouse" : `${t.bedrooms}-bedroom apartment`}, ${t.privateArea.toFixed(0)} m²`,
              description: `${b.name}: delivery expected in December 2027. Pool, gym, party room, playground and coworking.`,
              source: "manual",
            },
          },
        },
      ],
    };
  });
}
