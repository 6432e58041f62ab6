import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { rotatePathToken } from "@/lib/leads/marketing-channels";

/** A new inbound path for the channel; the old one stops at once. */
export const POST = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await rotatePathToken(ctx, pathId(params.id, "marketing channel"))), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
