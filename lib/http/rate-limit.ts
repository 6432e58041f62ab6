import type { Db } from "../../db/client";
import { consume, rateLimitHeaders as headersOf, type RateDecision } from "../rate-limit/limiter";
import { SITE_POLICIES, type SitePolicyName } from "../rate-limit/policies";

export type { RateDecision };
/** The public endpoint groups of spec 2 §8 and the site pages' forms (lib/rate-limit/policies.ts). */
export type RateGroup = SitePolicyName;

/** One request of a client address against its group's per-minute limit; null when public limits are off. */
export function consumeRateLimit(db: Db, group: RateGroup, client: string): Promise<RateDecision | null> {
  return consume(db, SITE_POLICIES[group], client);
}

export function rateLimitHeaders(group: RateGroup, d: RateDecision): Record<string, string> {
  return headersOf(SITE_POLICIES[group], d);
}
