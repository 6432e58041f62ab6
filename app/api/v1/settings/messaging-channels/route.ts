import { otherMethods } from "@/lib/http/method-not-allowed";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createMessagingChannel, listMessagingChannelSettings } from "@/lib/messaging/channels";

export const GET = apiRoute(async ({ ctx }) => json(await listMessagingChannelSettings(ctx)), { permission: "tenant.admin" });

/** The answer carries the inbound webhook URL and its HMAC secret, this once. */
export const POST = apiRoute(
  async ({ req, ctx }) => json(await createMessagingChannel(ctx, { body: await readJson(req), origin: new URL(req.url).origin }), 201),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
