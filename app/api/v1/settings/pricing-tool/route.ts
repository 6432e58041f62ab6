import { otherMethods } from "@/lib/http/method-not-allowed";
import { apiRoute, json } from "@/lib/http/route";
import { getPricingTool } from "@/lib/share/pricing-tool";

export const GET = apiRoute(async ({ ctx }) => json(await getPricingTool(ctx)), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
