import { DeliveryLogQuery, listDeliveries } from "@/lib/event-delivery/delivery-log";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ req, ctx }) => json(await listDeliveries(ctx, parseQuery(req.url, DeliveryLogQuery))), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
