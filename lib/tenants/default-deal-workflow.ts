/** The common Brazilian sales funnel, with `draft` for deals created without a stage. */
export function defaultDealWorkflow() {
  return {
    stages: [
      { id: "draft", label: "Rascunho", outcome: null },
      { id: "lead", label: "Lead", outcome: null },
      { id: "qualificacao", label: "Qualificação", outcome: null },
      { id: "visita", label: "Visita", outcome: null },
      { id: "proposta", label: "Proposta", outcome: null },
      { id: "negociacao", label: "Negociação", outcome: null },
      { id: "fechamento", label: "Fechamento", outcome: null },
      { id: "ganho", label: "Ganho", outcome: "won" as const },
      { id: "perdido", label: "Perdido", outcome: "lost" as const },
    ],
    terminalStageIds: ["ganho", "perdido"],
    defaultStageId: "draft",
  };
}
