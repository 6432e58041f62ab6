import { swaggerAssetResponse } from "@/lib/openapi/docs-responses";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** Allow-listed Swagger UI files from the `swagger-ui-dist` package. */
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  return swaggerAssetResponse((await ctx.params).file);
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
