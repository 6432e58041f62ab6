import { postLead } from "@/lib/inbound/lead-webhook";
import { otherMethods } from "@/lib/http/method-not-allowed";
import type { Segment } from "@/lib/http/run";

/**
 * A marketing channel posts a lead here (spec 2 §4): stored before any 2xx, processed in the
 * background. Under `next start` (`npm start`, `npm run demo`) posts reach this route only while
 * the server boots: afterwards its direct lane answers them with the same function
 * (lib/inbound/lead-intake-lane.ts).
 */
export async function POST(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return postLead(req, (await segment.params).pathToken);
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
