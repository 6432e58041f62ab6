import { receiveLead } from "@/lib/leads/inbound/receive-lead";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { json, noStore, run, type Segment } from "@/lib/http/run";


/** A marketing channel posts a lead here (spec 2 §4): stored before any 2xx, processed in the background. */
export function POST(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const answer = await receiveLead(db, params.pathToken, req);
    return json(answer.body, answer.status);
  });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
