import { json, noStore, run } from "../../http/run";
import { receiveLead } from "./receive-lead";

/**
 * `POST /api/webhooks/channels/{pathToken}` as one function of a `Request`: what the route
 * (`app/api/webhooks/channels/[pathToken]/route.ts`) and the server's direct lane
 * (`./intake-lane.ts`) both answer with, so the two cannot differ.
 */
export function postLead(req: Request, pathToken: string): Promise<Response> {
  return run(req, { params: Promise.resolve({ pathToken }) }, noStore, async ({ db, params }) => {
    const answer = await receiveLead(db, params.pathToken, req);
    return json(answer.body, answer.status);
  });
}
