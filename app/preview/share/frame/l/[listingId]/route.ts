import { framePage } from "@/app/preview/_preview/frame";

/** `GET /preview/share/frame/l/{listingId}?pick&…draft`: a listing inside the previewed shortlist or itinerary. */
export async function GET(req: Request, ctx: { params: Promise<{ listingId: string }> }): Promise<Response> {
  return framePage(req, (await ctx.params).listingId);
}
