import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { LeadLogQuery, listChannelLeads } from "@/lib/leads/inbound/lead-log";

/** The channel's inbound leads, newest first: status, what they became, why, and errors. */
export const GET = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await listChannelLeads(ctx, pathId(params.id, "marketing channel"), parseQuery(req.url, LeadLogQuery))),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
