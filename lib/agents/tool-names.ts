/**
 * The tools an agent may be allowed (`toolPolicy.allow`). Each runs the same verb as the REST API
 * and the tool interface (lib/agents/tools), through the same gates as a member.
 */
export const AGENT_TOOLS = {
  search_listings: "Search the tenant's listings (the listing search of the REST API).",
  get_listing: "Read one listing (as GET /api/v1/real-estate/listings/{id}).",
  reply: "Reply in the chat (the messaging send verb, with every gate); held for approval or recorded only in those modes.",
  save_deal: "Create the chat's deal with its contact, or update it (stage, notes, contact details).",
  create_visit_task: "Create a visit task on the deal (as POST /api/v1/crm/tasks).",
  label_chat: "Add a channel label to the chat.",
  hand_over: "Hand the chat over to a human: assign a broker to the deal and stop agents in that chat.",
} as const;

export type AgentToolName = keyof typeof AGENT_TOOLS;
export const AGENT_TOOL_NAMES = Object.keys(AGENT_TOOLS) as AgentToolName[];
export const isAgentTool = (name: string): name is AgentToolName => Object.hasOwn(AGENT_TOOLS, name);
