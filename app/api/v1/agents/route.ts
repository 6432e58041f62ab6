import { createAgent, listAgents } from "@/lib/agents/agents";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ ctx }) => json(await listAgents(ctx)));

export const POST = apiRoute(async ({ req, ctx }) => json(await createAgent(ctx, await readJson(req)), 201), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
