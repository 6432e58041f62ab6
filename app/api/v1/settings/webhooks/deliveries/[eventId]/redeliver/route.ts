import { redeliver } from "@/lib/event-delivery/delivery-log";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const POST = apiRoute<{ eventId: string }>(async ({ params, ctx }) => json(await redeliver(ctx, pathId(params.eventId, "event")), 202), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
