import { clientAddress } from "./client-address";
import { withoutQueryParams } from "./query";
import { consumeRateLimit, rateLimitHeaders, type RateDecision, type RateGroup } from "./rate-limit";
import { json, run, type RouteCtx, type Segment } from "./run";

/** Spec 2 §8: every sites answer, errors included, may be cached briefly by browsers and CDNs. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization",
};

/**
 * Spec 2 §2.2: the sites interface never rewrites text by a locale parameter, so clients do send
 * one; every endpoint ignores these (its strict query schema would otherwise answer 400).
 */
export const IGNORED_PUBLIC_PARAMS = ["locale", "lang"] as const;

/**
 * A `/api/sites` route: no credentials, any origin, the spec's cache header, and the rate limit of
 * its endpoint group per client address (429 with Retry-After and RateLimit headers). Answers a
 * browser should retry (429, 5xx) are not cacheable.
 */
export function publicRoute<P = Record<string, never>>(group: RateGroup, handler: (c: RouteCtx<P>) => Promise<Response>) {
  return (req: Request, segment?: Segment<P>) => {
    let decision: RateDecision | null = null;
    const finish = (_req: Request, res: Response) => {
      for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
      const retryable = res.status === 429 || res.status >= 500;
      res.headers.set("cache-control", retryable ? "no-store" : PUBLIC_CACHE_CONTROL);
      if (decision) for (const [k, v] of Object.entries(rateLimitHeaders(group, decision))) res.headers.set(k, v);
      return res;
    };
    return run(req, segment, finish, async (c) => {
      decision = await consumeRateLimit(c.db, group, clientAddress(req.headers));
      if (decision && !decision.allowed) {
        return json(
          { error: { code: "rate_limited", message: `Too many requests: at most ${decision.limit} per minute; retry in ${decision.resetSeconds} s.` } },
          429,
        );
      }
      return handler({ ...c, req: withoutQueryParams(c.req, IGNORED_PUBLIC_PARAMS) });
    });
  };
}

/** CORS preflight of every `/api/sites` route. */
export async function publicPreflight(): Promise<Response> {
  return new Response(null, { status: 204, headers: { ...CORS_HEADERS, "access-control-max-age": "86400", "cache-control": PUBLIC_CACHE_CONTROL } });
}
