import { DeliveryLogQuery, listDeliveries } from "@/lib/webhooks/delivery-log";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ req, ctx }) => json(await listDeliveries(ctx, parseQuery(req.url, DeliveryLogQuery))), { permission: "tenant.admin" });
