import { redeliver } from "@/lib/events/delivery-log";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute<{ eventId: string }>(async ({ db, actor, params }) =>
  json(await redeliver(db, actor, pathId(params.eventId, "event")), 202),
);
