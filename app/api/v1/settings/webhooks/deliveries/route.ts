import { DeliveryLogQuery, listDeliveries } from "@/lib/events/delivery-log";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ req, db, actor }) => json(await listDeliveries(db, actor, parseQuery(req.url, DeliveryLogQuery))));
