import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { syncOffer } from "@/lib/offers/sync-offer";

/** An origin system's offer, upserted by externalId (`source` `provider_sync`). */
export const POST = apiRoute(
  async ({ req, ctx }) => {
    const r = await syncOffer(ctx, await readJson(req));
    return json(r, r.created ? 201 : 200);
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
