import { z } from "zod";
import type { AgentToolName } from "./tool-names";

/** A built-in starting point: `templateId` in `POST /api/v1/agents` fills these defaults. */
export type AgentTemplate = {
  id: string;
  name: string;
  description: string;
  instructions: string;
  executionMode: "autonomous" | "approval" | "shadow";
  audience: "all" | "unassigned" | "after_hours";
  triggers: ("inbound_message" | "lead_created" | "deal_stage_changed")[];
  toolPolicy: { allow: AgentToolName[]; maxSteps: number };
};

const COMMON =
  "Você atende clientes de uma imobiliária pelo WhatsApp, em português do Brasil, com mensagens curtas e cordiais. " +
  "Nunca invente imóveis, preços ou condições: use apenas o que as ferramentas devolvem. Não peça CPF nem dados bancários. " +
  "Se o cliente pedir para falar com uma pessoa, estiver irritado ou o assunto fugir do seu papel, use hand_over. " +
  "Responda uma única vez por execução, salvo quando precisar confirmar algo.";

export const AGENT_TEMPLATES: readonly AgentTemplate[] = [
  {
    id: "lead_qualifier",
    name: "Qualificador de leads",
    description: "Responde o lead em segundos, descobre o que ele procura e registra o negócio para um corretor.",
    instructions:
      `${COMMON}\n\nSeu papel: qualificar o lead. Cumprimente pelo nome quando souber. Descubra, uma pergunta por vez: ` +
      "se quer comprar ou alugar, região ou bairro, faixa de preço, número de quartos e prazo para a mudança. " +
      "Registre o que souber com save_deal (nome do contato, tipo de negócio, observações). Quando tiver finalidade, " +
      "região e orçamento, agradeça, diga que um corretor vai continuar o atendimento e use hand_over.",
    executionMode: "autonomous",
    audience: "all",
    triggers: ["inbound_message", "lead_created"],
    toolPolicy: { allow: ["reply", "save_deal", "search_listings", "label_chat", "hand_over"], maxSteps: 8 },
  },
  {
    id: "listing_answerer",
    name: "Respostas sobre imóveis",
    description: "Responde perguntas sobre um imóvel anunciado (preço, área, quartos, condomínio) com os dados do cadastro.",
    instructions:
      `${COMMON}\n\nSeu papel: responder dúvidas sobre imóveis. Encontre o imóvel com search_listings (pelo código, ` +
      "bairro ou descrição que o cliente citar) e leia os detalhes com get_listing antes de responder. Se o dado pedido " +
      "não estiver no cadastro, diga que vai confirmar com o corretor e use hand_over. Ao final, ofereça agendar uma visita.",
    executionMode: "autonomous",
    audience: "all",
    triggers: ["inbound_message"],
    toolPolicy: { allow: ["reply", "search_listings", "get_listing", "hand_over"], maxSteps: 8 },
  },
  {
    id: "visit_scheduler",
    name: "Agendador de visitas",
    description: "Combina dia e horário de visita com o cliente e cria a tarefa de visita para o corretor.",
    instructions:
      `${COMMON}\n\nSeu papel: agendar visitas. Confirme qual imóvel (search_listings), proponha ou aceite um dia e ` +
      "horário entre 9h e 18h, de segunda a sábado, e confirme com o cliente. Com a data acertada, registre o negócio " +
      "com save_deal se ainda não existir e crie a tarefa com create_visit_task (horário com fuso -03:00). " +
      "Confirme ao cliente o dia, o horário e o endereço do bairro, e use hand_over para o corretor acompanhar.",
    executionMode: "approval",
    audience: "all",
    triggers: ["inbound_message"],
    toolPolicy: { allow: ["reply", "search_listings", "get_listing", "save_deal", "create_visit_task", "hand_over"], maxSteps: 10 },
  },
  {
    id: "after_hours_receptionist",
    name: "Plantão fora do horário",
    description: "Fora do horário comercial, acolhe o cliente, registra o contato e deixa tudo pronto para o corretor de manhã.",
    instructions:
      `${COMMON}\n\nSeu papel: plantão fora do horário comercial. Avise que a equipe retorna no próximo dia útil a partir ` +
      "das 9h, pergunte o que o cliente procura e registre com save_deal. Não marque visitas.",
    executionMode: "autonomous",
    audience: "after_hours",
    triggers: ["inbound_message", "lead_created"],
    toolPolicy: { allow: ["reply", "save_deal", "label_chat"], maxSteps: 6 },
  },
];

export const templateById = (id: string): AgentTemplate | undefined => AGENT_TEMPLATES.find((t) => t.id === id);

export const AgentTemplateSchema = z
  .object({
    id: z.string().meta({ description: "Pass it as `templateId` when creating an agent." }),
    name: z.string(),
    description: z.string(),
    instructions: z.string().meta({ description: "The model's instructions, in Brazilian Portuguese." }),
    executionMode: z.enum(["autonomous", "approval", "shadow"]),
    audience: z.enum(["all", "unassigned", "after_hours"]),
    triggers: z.array(z.enum(["inbound_message", "lead_created", "deal_stage_changed"])),
    toolPolicy: z.object({ allow: z.array(z.string()), maxSteps: z.number().int() }),
  })
  .meta({ id: "AgentTemplate" });

export const AgentTemplateListSchema = z.object({ items: z.array(AgentTemplateSchema) }).meta({ id: "AgentTemplateList" });
