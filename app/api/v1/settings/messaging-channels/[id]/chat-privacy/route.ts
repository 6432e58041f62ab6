import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { listChatPrivacy, setChatPrivacy } from "@/lib/messaging/chat-privacy";

export const GET = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await listChatPrivacy(ctx, pathId(params.id, "messaging channel"))), {
  permission: "tenant.admin",
});

export const PUT = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await setChatPrivacy(ctx, { id: pathId(params.id, "messaging channel"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PATCH, DELETE } = otherMethods("GET", "PUT");
