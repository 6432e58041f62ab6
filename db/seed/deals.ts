import type { MemberActor } from "../../lib/context/actor";
import { memberCtx } from "../../lib/context/verb-context";
import { createDeal } from "../../lib/deals/deals";
import { createChannel } from "../../lib/leads/marketing-channels";
import { updateSettings } from "../../lib/admin/update-settings";
import type { DbOrTx } from "../client";
import { fakeCpf, propertyOwner } from "./people";
import { money, type Rng } from "./random";

export const DEMO_DEALS = 60;

/** How the demo funnel is spread: most deals early in the funnel, some won and lost. */
const STAGES = [
  ["lead", 14],
  ["qualificacao", 10],
  ["visita", 9],
  ["proposta", 7],
  ["negociacao", 5],
  ["fechamento", 3],
  ["ganho", 6],
  ["perdido", 6],
] as const;

const NOTES = [
  "Procura perto do metrô, aceita imóvel para reformar.",
  "Família com dois filhos, quer escola por perto.",
  "Primeiro imóvel, vai usar FGTS e financiamento.",
  "Investidor: quer renda de aluguel acima de 0,5% ao mês.",
  "Mudança a trabalho, precisa entrar em até 60 dias.",
  "Tem pet de porte grande; precisa de área externa.",
];

/**
 * The demo funnel: two marketing channels with distribution queues, two custom fields, and
 * about 60 deals spread over stages and brokers, all through the API's own verbs.
 */
export async function createDemoDeals(
  db: DbOrTx,
  actor: MemberActor,
  brokers: { id: string; city: string }[],
  listingIds: string[],
  rng: Rng,
): Promise<number> {
  const ctx = memberCtx(db, actor);
  await updateSettings(ctx, {
    customFields: [
      { key: "origem", label: "Origem do lead", type: "select", options: ["site", "portal", "indicacao", "redes_sociais"] },
      { key: "consentimentoLgpd", label: "Consentimento LGPD", type: "boolean" },
    ],
  });
  const site = await createChannel(ctx, { name: "Site Casa Nova", kind: "website", queue: brokers.map((b) => b.id) });
  const portal = await createChannel(ctx, { name: "Portal Imóveis", kind: "portal", queue: brokers.slice(0, 3).map((b) => b.id) });

  for (let i = 0; i < DEMO_DEALS; i++) {
    const stage = rng.weighted(STAGES.map(([s, w]) => [s, w] as const));
    const dealType = rng.chance(0.65) ? "sale" : "rental";
    const person = propertyOwner(rng, rng.pick(["11", "21", "31"]));
    const channel = rng.weighted([
      [site, 4],
      [portal, 3],
      [null, 3],
    ] as const);
    const budget = dealType === "sale" ? rng.int(35, 250) * 10_000 : rng.int(15, 120) * 100;
    const leads = rng.some(listingIds, rng.int(0, 3)).map((listingId) => ({ listingId }));
    await createDeal(ctx, {
      title: `${dealType === "sale" ? "Compra" : "Locação"} - ${person.name}`,
      dealType,
      stage,
      amount: rng.chance(0.7) ? money(budget) : undefined,
      contacts: [
        {
          name: person.name,
          phone: person.phone,
          email: rng.chance(0.8) ? person.email : undefined,
          cpf: rng.chance(0.4) ? fakeCpf(rng) : undefined,
          role: dealType === "sale" ? "buyer" : "tenant",
        },
      ],
      custom: {
        budget,
        bedrooms: rng.int(1, 4),
        locations: rng.some(["Pinheiros", "Moema", "Copacabana", "Botafogo", "Savassi", "Lourdes", "Vila Mariana"], rng.int(1, 2)),
        propertyTypes: [rng.pick(["apartment", "house", "penthouse"])],
        additionalNotes: rng.pick(NOTES),
        origem: channel === site ? "site" : channel === portal ? "portal" : rng.pick(["indicacao", "redes_sociais"]),
        consentimentoLgpd: rng.chance(0.9),
        ...(leads.length ? { leadListings: leads } : {}),
      },
      // Deals from a channel go through its queue; the others are handed to a broker directly.
      ...(channel
        ? { marketingChannelInstanceId: channel.id, utmSource: channel === site ? "google" : "portal", utmMedium: "cpc" }
        : { assignedToId: rng.pick(brokers).id, source: "indicacao" }),
    });
  }
  return DEMO_DEALS;
}
