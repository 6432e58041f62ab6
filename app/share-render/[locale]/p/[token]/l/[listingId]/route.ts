import { readPasswordForm, sharePageResponse } from "@/app/share-render/_share/respond";

type Segment = { params: Promise<{ locale: string; token: string; listingId: string }> };

/** `/p/{token}/l/{listingId}`: one listing of a shared shortlist or itinerary, from the same resolve. */
export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: Segment) {
  return sharePageResponse(req, await params);
}

export async function POST(req: Request, { params }: Segment) {
  return sharePageResponse(req, await params, await readPasswordForm(req));
}
