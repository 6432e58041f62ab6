import { ListApprovalsQuery, listApprovals } from "@/lib/agents/approvals";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ req, ctx }) => json(await listApprovals(ctx, parseQuery(req.url, ListApprovalsQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
