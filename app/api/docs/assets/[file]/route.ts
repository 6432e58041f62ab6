import { swaggerAssetResponse } from "@/lib/openapi/docs-responses";

/** Allow-listed Swagger UI files from the `swagger-ui-dist` package. */
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  return swaggerAssetResponse((await ctx.params).file);
}
