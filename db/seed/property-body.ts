import { cep, near, type Deal, type Home } from "./home";
import { photosFor } from "./media";
import { propertyOwner } from "./people";
import { inPt } from "./places";
import { money, type Rng } from "./random";
import { descriptionPt, titlePt, TYPE_PT } from "./texts-pt";
import { translate } from "./texts-i18n";

export type Broker = { id: string; city: string };
export type BodyCtx = { rng: Rng; assetBase: string; brokers: Broker[]; index: number };

const NOTES = [
  "Chaves na portaria com o zelador; avisar com 1 hora de antecedência.",
  "Proprietário aceita permuta por imóvel menor na mesma região.",
  "Visitas somente com agendamento de 24h; imóvel ocupado pelo proprietário.",
  "Matrícula atualizada e certidões negativas conferidas.",
  "Inquilino atual desocupa no fim do mês; combinar fotos novas depois da saída.",
  "Exclusividade assinada por 120 dias.",
  "Proprietário mora fora; negociação por WhatsApp.",
  "Aceita proposta com 30% de entrada e saldo financiado.",
  "Há uma pequena infiltração no banheiro social, já orçada.",
  "Placa autorizada na fachada.",
  null,
  null,
] as const;

/** A listing's place in the default workflow: mostly on air, some drafts, paused and closed ones. */
function lifecycle(rng: Rng, deal: Deal): { stage: string; status: string | null } {
  const stage = rng.weighted([
    ["active", 70],
    ["draft", 12],
    ["suspended", 8],
    ["closed", 10],
  ] as const);
  if (stage === "active")
    return {
      stage,
      status: rng.weighted([
        ["available", 85],
        ["reserved", 15],
      ] as const),
    };
  if (stage === "suspended") return { stage, status: rng.pick(["owner_request", "pending_documents"]) };
  if (stage === "closed") return { stage, status: rng.chance(0.12) ? "withdrawn" : deal === "sale" ? "sold" : "rented" };
  return { stage, status: null };
}

function listing(h: Home, deal: Deal, rng: Rng) {
  const price = deal === "sale" ? h.salePrice : h.rent;
  const condo = h.condoFee ?? 0;
  const condoKey = h.condoFee === null ? {} : { condominiumFee: h.condoFee };
  const rental = deal === "rental";
  const financing = !rental && h.type !== "land" && rng.chance(0.85);
  const translations: Record<string, { title: string; description: string; source: "manual" }> = {};
  if (rng.chance(0.35)) translations.en = { ...translate(h, deal, financing, "en"), source: "manual" };
  if (rng.chance(0.2)) translations.es = { ...translate(h, deal, financing, "es"), source: "manual" };
  const living = h.bedrooms !== null;
  return {
    title: titlePt(h, deal, rng),
    description: descriptionPt(h, deal, financing, rng),
    type: deal,
    price: money(price),
    priceVisibility: rng.chance(0.06) ? "private" : "public",
    visibility: rng.chance(0.17) ? "private" : "public",
    ...lifecycle(rng, deal),
    // IPTU is yearly here, like the property's propertyTax; the spec leaves the period open.
    typeSpecificData: rental
      ? {
          deposit: price * 3,
          iptu: h.iptuYearly,
          ...condoKey,
          rentalPeriod: h.type === "studio" ? "12 meses" : "30 meses",
          furnished: h.features.includes("furnished"),
        }
      : { downPayment: Math.round(price * 0.2), financingAllowed: financing, iptu: h.iptuYearly, ...condoKey },
    ...(rental
      ? {
          acceptanceCriteria: {
            minIncome: (price + condo) * 3,
            requiresGuarantor: rng.chance(0.6),
            ...(living ? { petAllowed: h.features.includes("pets_allowed"), maxOccupants: h.bedrooms! * 2 } : {}),
            smokingAllowed: rng.chance(0.2),
          },
        }
      : {}),
    ...(Object.keys(translations).length ? { translations } : {}),
  };
}

/** The `POST /properties` body for one generated home. */
export function propertyPayload(h: Home, c: BodyCtx) {
  const { rng } = c;
  const local = c.brokers.filter((b) => b.city === h.city.city);
  const broker = rng.chance(0.85) && local.length ? rng.pick(local) : rng.pick(c.brokers);
  const where = inPt(h.nb);
  const hasPool = h.features.includes("private_pool") || h.amenities.includes("pool");
  return {
    property: {
      title: `${TYPE_PT[h.type]} na ${h.street}`,
      type: h.type,
      bedrooms: h.bedrooms,
      bathrooms: h.bathrooms,
      suites: h.suites,
      parkingSpaces: h.parking,
      totalArea: money(h.totalArea),
      usableArea: h.privateArea === null ? null : money(h.privateArea),
      privateArea: h.privateArea === null ? null : money(h.privateArea),
      features: h.features,
      condominiumFee: h.condoFee === null ? null : money(h.condoFee),
      propertyTax: money(h.iptuYearly),
      assignedToId: broker.id,
      owner: propertyOwner(rng, h.city.ddd),
      internalNotes: rng.pick(NOTES),
      media: photosFor(rng, h.type, hasPool, c.assetBase, where),
      videoUrl: rng.chance(0.12) ? `https://videos.casanovaimoveis.example/imovel-${c.index + 1}.mp4` : null,
      virtualTourUrl: rng.chance(0.08) ? `https://tour.casanovaimoveis.example/imovel-${c.index + 1}` : null,
    },
    location: {
      street: h.street,
      number: h.number,
      complement: h.complement,
      neighborhood: h.nb.name,
      city: h.city.city,
      state: h.city.state,
      postalCode: cep(rng, h.nb),
      latitude: near(rng, h.nb.lat),
      longitude: near(rng, h.nb.lng),
    },
    listings: h.deals.map((deal) => listing(h, deal, rng)),
  };
}
