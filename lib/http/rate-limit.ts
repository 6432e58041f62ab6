import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { config } from "../config";

/** Spec 2 §8: requests per minute per client address and endpoint group. */
export const RATE_LIMITS = {
  site: 100, // resolve, public-config, property detail
  content: 60, // search, similar, developments, CMS, brokers, share links
  locations: 30,
  // Pricing tool helpers (spec 2 §4 leaves their limits open): autocomplete runs per keystroke,
  // an estimate per form change, a lead once per visit.
  pricing_autocomplete: 120,
  pricing_estimate: 30,
  pricing_lead: 10,
  // A rendered site's own lead form (`POST /lead`): a person sends a few at most; a script, many.
  site_lead: 10,
} as const;
export type RateGroup = keyof typeof RATE_LIMITS;
const WINDOW_SECONDS = 60;

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

const limiters = new WeakMap<Db, Map<RateGroup, RateLimiterDrizzle>>();

/**
 * rate-limiter-flexible on its Drizzle store: one atomic upsert per hit in `rate_limits`, so the
 * limits hold across server processes on PostgreSQL (and work on the embedded database). A client
 * already over its limit is refused from memory until the window ends (no database write), and if
 * the database fails an in-memory limiter takes over rather than letting everything through.
 */
function limiter(db: Db, group: RateGroup): RateLimiterDrizzle {
  let byGroup = limiters.get(db);
  if (!byGroup) limiters.set(db, (byGroup = new Map()));
  let l = byGroup.get(group);
  if (!l) {
    const points = RATE_LIMITS[group];
    l = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: `sites:${group}`,
      points,
      duration: WINDOW_SECONDS,
      inMemoryBlockOnConsumed: points,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `sites:${group}`, points, duration: WINDOW_SECONDS }),
    });
    byGroup.set(group, l);
  }
  return l;
}

export async function consumeRateLimit(db: Db, group: RateGroup, client: string): Promise<RateDecision | null> {
  if (config().PUBLIC_RATE_LIMITS === "off") return null;
  const limit = RATE_LIMITS[group];
  try {
    const r = await limiter(db, group).consume(client);
    return { allowed: true, limit, remaining: r.remainingPoints, resetSeconds: Math.ceil(r.msBeforeNext / 1000) };
  } catch (r) {
    if (!(r instanceof RateLimiterRes)) throw r;
    return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)) };
  }
}

/** IETF RateLimit headers (draft 11) and, on a refusal, Retry-After. */
export function rateLimitHeaders(group: RateGroup, d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    "ratelimit-policy": `"${group}";q=${d.limit};w=${WINDOW_SECONDS}`,
    ratelimit: `"${group}";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) h["retry-after"] = String(d.resetSeconds);
  return h;
}
