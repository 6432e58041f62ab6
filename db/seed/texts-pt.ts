import type { Deal, Home, HomeType } from "./home";
import { inPt } from "./places";
import type { Rng } from "./random";

/** Portuguese titles and descriptions, assembled from phrases a Brazilian broker would write. */
export const TYPE_PT: Record<HomeType, string> = {
  apartment: "Apartamento",
  studio: "Studio",
  penthouse: "Cobertura",
  house: "Casa",
  condo_house: "Casa em condomínio",
  office: "Sala comercial",
  commercial: "Loja",
  land: "Terreno",
};

const AMENITY_PT: Record<string, string> = {
  pool: "piscina",
  gym: "academia",
  party_room: "salão de festas",
  playground: "playground",
  concierge_24h: "portaria 24h",
  elevator: "elevador",
  sauna: "sauna",
  coworking: "coworking",
  sports_court: "quadra poliesportiva",
};

const FEMININE = new Set<HomeType>(["house", "condo_house", "penthouse", "office", "commercial"]);
/** Portuguese adjectives agree with the noun: "casa reformada", "apartamento reformado". */
const agree = (h: Home, masculine: string) => (FEMININE.has(h.type) ? masculine.replace(/o$/, "a") : masculine);

const brl = (v: number) => v.toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
export const listPt = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} e ${items.at(-1)}`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The selling point that goes into the title, if the home has one. */
function highlight(h: Home, rng: Rng): string {
  const f = new Set(h.features);
  if (f.has("sea_view")) return "com vista para o mar";
  if (f.has("private_pool")) return "com piscina";
  if (f.has("gourmet_balcony")) return "com varanda gourmet";
  if (f.has("backyard") && h.type === "house") return "com quintal";
  if (f.has("furnished")) return agree(h, "mobiliado");
  return rng.pick(["", "", "perto", agree(h, "reformado"), "com ótima planta"]);
}

/** "Apartamento de 3 dormitórios com varanda gourmet à venda em Pinheiros". */
export function titlePt(h: Home, deal: Deal, rng: Rng): string {
  const verb = deal === "rental" ? rng.pick(["para alugar", "para locação"]) : rng.pick(["à venda", ""]);
  let what: string;
  let extra = highlight(h, rng);
  if (h.type === "land" || h.type === "office" || h.type === "commercial") {
    what = `de ${h.type === "land" ? h.totalArea : h.privateArea} m²`;
    extra = h.type === "commercial" && rng.chance(0.5) ? "com vitrine para a rua" : extra === "perto" ? "perto" : "";
  } else if (h.type === "studio") {
    what = `de ${h.privateArea} m²`;
  } else {
    const useQuartos = rng.chance(0.4);
    what = useQuartos ? `com ${plural(h.bedrooms!, "quarto", "quartos")}` : `de ${plural(h.bedrooms!, "dormitório", "dormitórios")}`;
    if (h.suites && h.suites >= 2 && rng.chance(0.4)) what += ` (${h.suites} suítes)`;
    // "com 2 quartos e varanda gourmet", not "com 2 quartos com varanda gourmet".
    if (useQuartos && extra.startsWith("com ")) extra = `e ${extra.slice(4)}`;
  }
  const near = extra === "perto" ? `, perto ${h.nb.landmark}` : "";
  return [TYPE_PT[h.type], what, near ? "" : extra, verb, inPt(h.nb)].filter(Boolean).join(" ") + near;
}

function interiorPt(h: Home): string[] {
  const f = new Set(h.features);
  const out: string[] = [];
  if (f.has("gourmet_balcony")) out.push(`Sala ampla integrada à varanda gourmet${f.has("barbecue") ? " com churrasqueira" : ""}.`);
  else if (f.has("balcony")) out.push("Sala para dois ambientes com varanda.");
  if (f.has("sea_view")) out.push("Vista definitiva para o mar a partir da sala e da suíte principal.");
  if (f.has("private_pool")) out.push("Piscina privativa com deck de madeira e área gourmet.");
  if (f.has("backyard")) out.push(`Quintal gramado${f.has("barbecue") && !f.has("gourmet_balcony") ? " com churrasqueira" : ""}, ótimo para crianças e pets.`);
  if (f.has("service_area")) out.push("Cozinha planejada e área de serviço independente.");
  if (f.has("closet")) out.push("Suíte principal com closet.");
  if (f.has("air_conditioning")) out.push("Ar-condicionado instalado.");
  if (f.has("home_office")) out.push("Escritório com boa luz natural, ideal para home office.");
  if (f.has("furnished")) out.push("Imóvel entregue mobiliado e equipado, é só trazer as malas.");
  return out;
}

export function descriptionPt(h: Home, deal: Deal, financing: boolean, rng: Rng): string {
  const paragraphs: string[] = [];
  const t = TYPE_PT[h.type];
  if (h.type === "land") {
    paragraphs.push(`Terreno plano de ${h.totalArea} m², com documentação regularizada, em rua tranquila ${inPt(h.nb)}.`);
    paragraphs.push("Ótimo para construção de residência unifamiliar ou pequeno empreendimento; consulte o zoneamento.");
  } else if (h.type === "office" || h.type === "commercial") {
    paragraphs.push(
      `${t} com ${h.privateArea} m² de área útil, ${plural(h.bathrooms!, "banheiro", "banheiros")}` +
        `${h.parking ? ` e ${plural(h.parking, "vaga", "vagas")} de garagem` : ""}.`,
    );
    paragraphs.push(
      h.type === "office"
        ? "Planta livre, piso elevado e prédio com recepção e controle de acesso."
        : "Pé-direito alto, vitrine ampla e grande fluxo de pedestres.",
    );
  } else {
    const suites = h.suites ? ` (sendo ${plural(h.suites, "suíte", "suítes")})` : "";
    paragraphs.push(
      `${t} com ${h.privateArea} m² de área privativa, ${plural(h.bedrooms!, "dormitório", "dormitórios")}${suites}, ` +
        `${plural(h.bathrooms!, "banheiro", "banheiros")}${h.parking ? ` e ${plural(h.parking, "vaga", "vagas")} de garagem` : ", sem vaga de garagem"}.`,
    );
    const inside = interiorPt(h);
    if (inside.length) paragraphs.push(inside.join(" "));
  }
  if (h.amenities.length) paragraphs.push(`O condomínio oferece ${listPt(h.amenities.map((a) => AMENITY_PT[a]))}.`);
  paragraphs.push(`${agree(h, "Localizado")} na ${h.street}, perto ${h.nb.landmark}, com comércio, restaurantes e transporte a poucos minutos.`);
  const costs = [h.condoFee ? `condomínio de ${brl(h.condoFee)}` : "", `IPTU de ${brl(h.iptuYearly)} por ano`].filter(Boolean);
  if (deal === "sale") {
    const terms = financing
      ? h.bedrooms === null
        ? "Aceita financiamento bancário."
        : rng.pick(["Aceita financiamento bancário.", "Aceita financiamento e uso do FGTS."])
      : rng.pick(["Somente à vista; estuda propostas.", "Pagamento à vista, documentação pronta para escritura."]);
    paragraphs.push(`${terms} Valores: ${listPt(costs)}.`);
  } else {
    paragraphs.push(
      `Contrato de ${h.type === "studio" ? 12 : 30} meses. Garantias: fiador, seguro-fiança ou caução. ` +
        `Valores: ${listPt(costs)}.${h.features.includes("pets_allowed") ? " Aceita pets." : ""}`,
    );
  }
  paragraphs.push(rng.pick(["Agende sua visita!", "Fale com nossos corretores e agende uma visita.", "Venha conhecer!"]));
  return paragraphs.join("\n\n");
}
