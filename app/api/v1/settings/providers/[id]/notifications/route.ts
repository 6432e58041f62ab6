import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { ListNotificationsQuery } from "@/lib/providers/schemas";
import { listProviderNotifications } from "@/lib/providers/settings";

/** What arrived at the receiver and what each notification did, newest first. */
export const GET = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) =>
    json(await listProviderNotifications(ctx, { id: pathId(params.id, "provider"), query: parseQuery(req.url, ListNotificationsQuery) })),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
