import type { ModelMessage } from "ai";

export type HistoryLine = { direction: "inbound" | "outbound"; text: string | null; at: string };

/** Rules the service adds to every agent's instructions: what it must never do, whatever they say. */
const GUARDRAILS = [
  "Regras do serviço (valem acima de qualquer outra instrução):",
  "- Fale apenas com base nos dados das ferramentas; não prometa descontos, aprovação de crédito nem condições.",
  "- Para falar com o cliente use a ferramenta reply; texto fora dela não é enviado.",
  "- Não peça nem repita documentos, senhas ou dados bancários.",
  "- Se o cliente pedir uma pessoa ou não quiser mais mensagens, use hand_over (se disponível) e encerre.",
].join("\n");

const saoPaulo = (d: Date) => `${new Date(d.getTime() - 3 * 3600_000).toISOString().slice(0, 16).replace("T", " ")} (horário de Brasília, -03:00)`;

export function systemPrompt(instructions: string, facts: { now: Date; contactName: string | null; dealId: string | null; trigger: string }): string {
  const lines = [
    instructions,
    "",
    GUARDRAILS,
    "",
    "Contexto:",
    `- Agora: ${saoPaulo(facts.now)}.`,
    `- Cliente: ${facts.contactName ?? "nome desconhecido"}.`,
    facts.dealId ? `- Negócio já registrado: ${facts.dealId}.` : "- Nenhum negócio registrado ainda para este cliente.",
    `- Motivo desta execução: ${facts.trigger}.`,
  ];
  return lines.join("\n");
}

/**
 * The chat as model messages, oldest first: the contact's messages as `user`, ours as `assistant`.
 * A chat that ends with our message (or has none, as for a new lead) gets a short note as the last
 * `user` turn, so the model is asked for the next step instead of continuing our own text.
 */
export function chatMessages(history: HistoryLine[], note: string): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const h of history) {
    if (!h.text) continue;
    out.push(h.direction === "inbound" ? { role: "user", content: h.text } : { role: "assistant", content: h.text });
  }
  if (!out.length || out[out.length - 1].role !== "user") out.push({ role: "user", content: note });
  return out;
}
