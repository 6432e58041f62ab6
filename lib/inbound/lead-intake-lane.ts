import type http from "node:http";
import { answerOnLane } from "../server/direct-lane";
import { postLead } from "./lead-webhook";
import { MAX_LEAD_BYTES } from "../leads/inbound/receive-lead";

/** A lead post, exactly: any other shape (a sub-path, a trailing slash, a '%') goes to Next.js. */
const LEAD_PATH = /^\/api\/webhooks\/channels\/(chnl_[A-Za-z0-9_-]{16,100})(?:\?[^#]*)?$/;

/**
 * The lead webhook on our server's own lane (lib/server/web-server.ts): the same `postLead`
 * the route runs, fed a `Request` built from the bytes already read, without Next.js's routing and
 * streams in between. At 500 leads a second on two cores, that is the difference between acks
 * queueing behind each other in bursts and not (docs/benchmarks.md).
 */
export function leadIntakeLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const m = LEAD_PATH.exec(req.url ?? "");
  if (!m) return false;
  // One byte past the cap is enough for postLead to refuse the body (413) as the route would.
  answerOnLane(req, res, MAX_LEAD_BYTES + 1, (request) => postLead(request, m[1]), "lead post");
  return true;
}
