import { RateLimiterDrizzle, RateLimiterMemory } from "rate-limiter-flexible";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { DomainError } from "../errors/domain-errors";

/** Wrong passwords allowed per link in the window before the link refuses every attempt. */
export const WRONG_PASSWORDS_ALLOWED = 5;
const WINDOW_SECONDS = 15 * 60;

const limiters = new WeakMap<Db, RateLimiterDrizzle>();

/**
 * Counted per link, not per client address: a guesser spreading attempts over many addresses is
 * held back the same. Kept in the shared `rate_limits` table so every server process sees the
 * same count; if the database fails, an in-memory count takes over.
 */
function limiter(db: Db): RateLimiterDrizzle {
  let l = limiters.get(db);
  if (!l) {
    l = new RateLimiterDrizzle({
      storeClient: db, schema: rateLimits, keyPrefix: "share:password", points: WRONG_PASSWORDS_ALLOWED, duration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: "share:password", points: WRONG_PASSWORDS_ALLOWED, duration: WINDOW_SECONDS }),
    });
    limiters.set(db, l);
  }
  return l;
}

const refused = (seconds: number) =>
  new DomainError("rate_limited", "rate_limited", `Too many wrong passwords for this link; try again in ${Math.max(1, Math.ceil(seconds))} s.`);

/** 429 while the link has used up its wrong attempts (checked before the password is even hashed). */
export async function assertNotThrottled(db: Db, linkId: string): Promise<void> {
  const r = await limiter(db).get(linkId);
  if (r && r.consumedPoints >= WRONG_PASSWORDS_ALLOWED) throw refused(r.msBeforeNext / 1000);
}

/** Counts a wrong password; from the third on, the answer is slowed down (200 ms per earlier failure, at most 1 s). */
export async function noteWrongPassword(db: Db, linkId: string): Promise<void> {
  let failures = WRONG_PASSWORDS_ALLOWED;
  try {
    failures = (await limiter(db).penalty(linkId, 1)).consumedPoints;
  } catch {
    // the store failed: count as the worst case, the insurance limiter keeps counting
  }
  if (failures >= 3) await new Promise((r) => setTimeout(r, Math.min(1000, 200 * (failures - 2))));
}
