import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { authenticateApiKey, readApiKey } from "../auth/authenticate-key";
import { memberCtx } from "../context/verb-context";
import { config } from "../config";
import type { KeyCtx } from "./route";
import { json, run, type Segment } from "./run";

/** Spec 1 §8: messaging API key rate. */
export const MESSAGING_RATE_LIMIT = 1000;
const WINDOW_SECONDS = 3600;

const limiters = new WeakMap<Db, RateLimiterDrizzle>();
function limiter(db: Db): RateLimiterDrizzle {
  let l = limiters.get(db);
  if (!l) {
    l = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: "messaging",
      points: MESSAGING_RATE_LIMIT,
      duration: WINDOW_SECONDS,
      inMemoryBlockOnConsumed: MESSAGING_RATE_LIMIT,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: "messaging", points: MESSAGING_RATE_LIMIT, duration: WINDOW_SECONDS }),
    });
    limiters.set(db, l);
  }
  return l;
}

export type Decision = { allowed: boolean; remaining: number; resetSeconds: number };

/** One request of the key against the messaging budget (shared with the tool interface at `/api/mcp`); null when limits are off. */
export async function consume(db: Db, keyId: string): Promise<Decision | null> {
  if (config().MESSAGING_RATE_LIMITS === "off") return null;
  try {
    const r = await limiter(db).consume(keyId);
    return { allowed: true, remaining: r.remainingPoints, resetSeconds: Math.ceil(r.msBeforeNext / 1000) };
  } catch (r) {
    if (!(r instanceof RateLimiterRes)) throw r;
    return { allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)) };
  }
}

/** IETF `RateLimit` headers of a messaging decision, and `Retry-After` on a refusal. */
export function setRateHeaders(res: Response, decision: Decision): void {
  res.headers.set("ratelimit-policy", `"messaging";q=${MESSAGING_RATE_LIMIT};w=${WINDOW_SECONDS}`);
  res.headers.set("ratelimit", `"messaging";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) res.headers.set("retry-after", String(decision.resetSeconds));
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
      decision = await consume(c.db, actor.keyId);
      if (decision && !decision.allowed) {
        return json(rateLimitedBody(decision), 429);
      }
      return handler({ ...c, actor, ctx: memberCtx(c.db, actor), log: c.log.child({ tenantId: actor.tenantId, userId: actor.userId }) });
    });
  };
}
