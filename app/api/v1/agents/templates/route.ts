import { listAgentTemplates } from "@/lib/agents/agents";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async () => json(listAgentTemplates()));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
