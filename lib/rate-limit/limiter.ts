import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { metrics } from "../metrics/registry";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { config } from "../config";
import { logger } from "../log/logger";
import type { RatePolicy } from "./policies";

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

type Pair = { store: RateLimiterDrizzle; memory: RateLimiterMemory };
const limiters = new WeakMap<Db, Map<string, Pair>>();

/**
 * rate-limiter-flexible on its Drizzle store: one atomic upsert per hit in `rate_limits`, so a
 * limit holds across every server process (and works on the embedded database). A key already
 * over its limit is refused from memory until the window ends, without a database write.
 *
 * If the store fails, the decision falls back to a count in this process's memory, and says so in
 * the error log: a silent fallback once multiplied every limit by the number of web processes
 * unseen (the production bundle could not load the store's driver; issue #32, D3).
 */
function pair(db: Db, p: RatePolicy): Pair {
  let byPolicy = limiters.get(db);
  if (!byPolicy) limiters.set(db, (byPolicy = new Map()));
  let l = byPolicy.get(p.keyPrefix);
  if (!l) {
    l = {
      store: storeLimiter(db, p),
      memory: new RateLimiterMemory({ keyPrefix: p.keyPrefix, points: p.points, duration: p.windowSeconds }),
    };
    byPolicy.set(p.keyPrefix, l);
  }
  return l;
}

export function storeLimiter(db: Db, p: RatePolicy): RateLimiterDrizzle {
  return new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: p.keyPrefix,
    points: p.points,
    duration: p.windowSeconds,
    inMemoryBlockOnConsumed: p.blockInMemory === false ? 0 : p.points,
  });
}

const lastComplaint = new Map<string, number>();
/** At most one error line a minute per policy: a dead store must be seen, not flood the log. */
function storeFailed(p: RatePolicy, err: unknown): void {
  const now = Date.now();
  if (now - (lastComplaint.get(p.keyPrefix) ?? 0) < 60_000) return;
  lastComplaint.set(p.keyPrefix, now);
  logger().error(
    { err, policy: p.name },
    `rate limit store failed: counting '${p.name}' in this process's memory only (limits no longer hold across processes) until it works again`,
  );
}

function enabled(p: RatePolicy): boolean {
  const c = config();
  if (p.switch === "public") return c.PUBLIC_RATE_LIMITS !== "off";
  if (p.switch === "messaging") return c.MESSAGING_RATE_LIMITS !== "off";
  return true;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Spends one point of `key`; null when the policy's switch is off. */
export async function consume(db: Db, p: RatePolicy, key: string): Promise<RateDecision | null> {
  if (!enabled(p)) return null;
  const l = pair(db, p);
  try {
    const r = await guarded(
      p,
      () => l.store.consume(key),
      () => l.memory.consume(key),
    );
    return { allowed: true, limit: p.points, remaining: r.remainingPoints, resetSeconds: Math.ceil(r.msBeforeNext / 1000) };
  } catch (r) {
    if (!(r instanceof RateLimiterRes)) throw r;
    metrics().rateLimitRefusals.inc({ policy: p.name });
    return { allowed: false, limit: p.points, remaining: 0, resetSeconds: seconds(r.msBeforeNext) };
  }
}

/** Gives one point back to `key` (an attempt that turned out to be legitimate). */
export async function refund(db: Db, p: RatePolicy, key: string): Promise<void> {
  const l = pair(db, p);
  await guarded(
    p,
    () => l.store.reward(key, 1),
    () => l.memory.reward(key, 1),
  );
}

async function guarded<T>(p: RatePolicy, store: () => Promise<T>, memory: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (err) {
    if (err instanceof RateLimiterRes) throw err;
    storeFailed(p, err);
    return memory();
  }
}

/** IETF RateLimit headers (draft 11) and, on a refusal, Retry-After. */
export function rateLimitHeaders(p: RatePolicy, d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    "ratelimit-policy": `"${p.name}";q=${d.limit};w=${p.windowSeconds}`,
    ratelimit: `"${p.name}";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) h["retry-after"] = String(d.resetSeconds);
  return h;
}
