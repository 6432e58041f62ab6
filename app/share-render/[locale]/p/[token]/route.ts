import { readPasswordForm, sharePageResponse } from "@/app/share-render/_share/respond";

type Segment = { params: Promise<{ locale: string; token: string }> };

/**
 * `/p/{token}` (and `/en/p/{token}`, `/es/p/{token}`) on any host, rewritten here by `proxy.ts`:
 * the share page a recipient opens. A route handler rather than a page, so each state answers
 * with its own status (401, 403, 404, 410, 429) and the page carries no client runtime.
 */
export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: Segment) {
  return sharePageResponse(req, await params);
}

/** The password form (works without JavaScript). */
export async function POST(req: Request, { params }: Segment) {
  return sharePageResponse(req, await params, await readPasswordForm(req));
}
