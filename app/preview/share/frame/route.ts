import { framePage } from "@/app/preview/_preview/frame";

/**
 * `GET /preview/share/frame?pick=kind:id&…draft`: the share page a recipient would get for the
 * broker's pick, with the draft applied (see `app/preview/_preview/frame.tsx`).
 */
export async function GET(req: Request): Promise<Response> {
  return framePage(req, null);
}
