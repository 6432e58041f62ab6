import { otherMethods } from "@/lib/http/method-not-allowed";
import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { addOptOut, listOptOuts, removeOptOut, RemoveOptOutQuery } from "@/lib/messaging/opt-outs";

export const GET = apiRoute(async ({ ctx }) => json(await listOptOuts(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await addOptOut(ctx, await readJson(req)), 201), { permission: "tenant.admin" });

/** `DELETE ?phone=+5511...`, `?email=` or `?channelId=&chatId=`: handles go in the query, never in the path. */
export const DELETE = apiRoute(
  async ({ req, ctx }) => {
    await removeOptOut(ctx, parseQuery(req.url, RemoveOptOutQuery));
    return new Response(null, { status: 204 });
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH } = otherMethods("GET", "POST", "DELETE");
