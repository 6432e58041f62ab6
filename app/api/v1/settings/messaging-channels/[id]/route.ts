import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteMessagingChannel, getMessagingChannelSettings, updateMessagingChannel } from "@/lib/messaging/channels";

const id = (p: { id: string }) => pathId(p.id, "messaging channel");

export const GET = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await getMessagingChannelSettings(ctx, id(params))), {
  permission: "tenant.admin",
});

export const PATCH = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await updateMessagingChannel(ctx, { id: id(params), body: await readJson(req) })),
  { permission: "tenant.admin" },
);

export const DELETE = apiRoute<{ id: string }>(
  async ({ params, ctx }) => {
    await deleteMessagingChannel(ctx, id(params));
    return new Response(null, { status: 204 });
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
