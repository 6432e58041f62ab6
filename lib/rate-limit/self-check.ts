import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { storeLimiter } from "./limiter";

/**
 * Proves at start, in the server's own bundle, that the shared limiter store works: one point
 * spent through the store (no in-memory fallback) must be read back from `rate_limits`. The
 * production build once replaced the store's driver import with a stub that throws, and every
 * limit silently became per process; now such a build stops at start with this error.
 */
export async function checkRateLimitStore(db: Db): Promise<void> {
  const key = `selfcheck-${process.pid}-${randomUUID()}`;
  const policy = { name: "selfcheck", points: 10, windowSeconds: 60, keyPrefix: "selfcheck" };
  const stored = `${policy.keyPrefix}:${key}`;
  try {
    await storeLimiter(db, policy).consume(key);
    const [row] = await db.select({ points: rateLimits.points }).from(rateLimits).where(eq(rateLimits.key, stored)).limit(1);
    if (row?.points !== 1) throw new Error(`the row it wrote reads back as ${row ? `${row.points} points` : "missing"}`);
  } catch (err) {
    throw new Error(
      `The rate limit store does not work (${(err as Error).message}${(err as Error).cause ? `: ${((err as Error).cause as Error).message}` : ""}): limits would not hold across processes. Check that the build keeps rate-limiter-flexible external (next.config.mjs serverExternalPackages).`,
    );
  } finally {
    await db
      .delete(rateLimits)
      .where(eq(rateLimits.key, stored))
      .catch(() => {});
  }
}
