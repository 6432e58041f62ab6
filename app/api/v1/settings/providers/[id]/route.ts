import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { deleteProvider, getProvider } from "@/lib/providers/settings";

type P = { id: string };

export const GET = apiRoute<P>(
  async ({ req, params, ctx }) => json(await getProvider(ctx, { id: pathId(params.id, "provider"), origin: new URL(req.url).origin })),
  { permission: "tenant.admin" },
);

export const DELETE = apiRoute<P>(
  async ({ params, ctx }) => {
    await deleteProvider(ctx, pathId(params.id, "provider"));
    return new Response(null, { status: 204 });
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH } = otherMethods("GET", "DELETE");
