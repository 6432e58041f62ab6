import type { Db } from "../../db/client";
import { noteLogContext } from "../log/log-context";
import { authenticateApiKey, readApiKey } from "../auth/authenticate-key";
import { memberCtx } from "../context/verb-context";
import { consume as consumePoint, rateLimitHeaders } from "../rate-limit/limiter";
import { MESSAGING_POLICY } from "../rate-limit/policies";
import type { KeyCtx } from "./route";
import { json, run, type Segment } from "./run";

/** Spec 1 §8: messaging API key rate. */
export const MESSAGING_RATE_LIMIT = MESSAGING_POLICY.points;

export type Decision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

/** One request of the key against the messaging budget (shared with the tool interface at `/api/mcp`); null when limits are off. */
export function consume(db: Db, keyId: string): Promise<Decision | null> {
  return consumePoint(db, MESSAGING_POLICY, keyId);
}

/** IETF `RateLimit` headers of a messaging decision, and `Retry-After` on a refusal. */
export function setRateHeaders(res: Response, decision: Decision): void {
  for (const [k, v] of Object.entries(rateLimitHeaders(MESSAGING_POLICY, decision))) res.headers.set(k, v);
}

export const rateLimitedBody = (d: Decision) => ({
  error: { code: "rate_limited", message: `Too many requests: at most ${MESSAGING_RATE_LIMIT} per hour per API key; retry in ${d.resetSeconds} s.` },
});

/**
 * An `/api/v1/messaging` route: the key as `x-api-key` (the recommended form there) or Bearer, 1000
 * requests per hour per key counted in PostgreSQL (so every server process shares the count), IETF
 * `RateLimit` headers on every answer and 429 with `Retry-After` past the limit.
 */
export function messagingRoute<P = Record<string, never>>(handler: (c: KeyCtx<P>) => Promise<Response>) {
  return (req: Request, segment?: Segment<P>) => {
    let decision: Decision | null = null;
    const finish = (_req: Request, res: Response) => {
      res.headers.set("cache-control", "no-store");
      if (res.status === 401 && !res.headers.has("www-authenticate")) res.headers.set("www-authenticate", 'Bearer realm="api"');
      if (decision) setRateHeaders(res, decision);
      return res;
    };
    return run(req, segment, finish, async (c) => {
      const actor = await authenticateApiKey(c.db, readApiKey(req.headers, true));
      noteLogContext({ tenantId: actor.tenantId });
      decision = await consume(c.db, actor.keyId);
      if (decision && !decision.allowed) {
        return json(rateLimitedBody(decision), 429);
      }
      return handler({ ...c, actor, ctx: memberCtx(c.db, actor), log: c.log.child({ userId: actor.userId }) });
    });
  };
}
