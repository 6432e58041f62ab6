import { otherMethods } from "@/lib/http/method-not-allowed";
import { json, noStore, run, type Segment } from "@/lib/http/run";
import { receiveProviderNotification } from "@/lib/providers/receive";

/** A payment or e-signature provider posts here: signature verified on the raw body, stored before the 200, applied in the background. */
export function POST(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => json(await receiveProviderNotification(db, params.pathToken, req)));
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
