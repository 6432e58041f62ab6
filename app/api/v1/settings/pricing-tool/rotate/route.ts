import { otherMethods } from "@/lib/http/method-not-allowed";
import { apiRoute, json } from "@/lib/http/route";
import { rotatePricingTool } from "@/lib/share/pricing-tool";

export const POST = apiRoute(async ({ ctx }) => json(await rotatePricingTool(ctx)), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
