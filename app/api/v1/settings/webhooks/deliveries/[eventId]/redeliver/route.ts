import { redeliver } from "@/lib/webhooks/delivery-log";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute<{ eventId: string }>(async ({ params, ctx }) =>
  json(await redeliver(ctx, pathId(params.eventId, "event")), 202),
  { permission: "tenant.admin" },
);
