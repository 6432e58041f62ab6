import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readOptionalJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { clearChannelSecret, setChannelSecret } from "@/lib/leads/marketing-channels";

/** Generated with an empty body, or `{secret}`; returned this once. */
export const POST = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => {
    const body = (await readOptionalJson(req)) ?? {};
    return json(await setChannelSecret(ctx, { id: pathId(params.id, "marketing channel"), body }));
  },
  { permission: "tenant.admin" },
);

/** Inbound leads are accepted unsigned again. */
export const DELETE = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await clearChannelSecret(ctx, pathId(params.id, "marketing channel"))), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH } = otherMethods("POST", "DELETE");
