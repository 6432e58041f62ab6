import { clientAddress } from "./client-address";
import { publicRoute } from "./public-route";
import { readOptionalJson } from "./read-json";
import type { RateGroup } from "./rate-limit";
import type { RouteCtx, Segment } from "./run";
import type { Visit } from "../share/record-access";

/**
 * A `/api/sites/share/...` route: the public wrapper (CORS, rate limit, error mapping) with one
 * difference: answers are `private, no-store`. A share answer may sit behind a password, and a
 * deactivated or expired link must stop opening at once, not a minute later from a cache; every
 * open is also counted.
 */
export function shareRoute<P>(group: RateGroup, handler: (c: RouteCtx<P>) => Promise<Response>) {
  const inner = publicRoute<P>(group, handler);
  return async (req: Request, segment?: Segment<P>) => {
    const res = await inner(req, segment);
    res.headers.set("cache-control", "private, no-store");
    return res;
  };
}

export const visitOf = (req: Request): Visit => ({
  client: clientAddress(req.headers),
  userAgent: req.headers.get("user-agent"),
  referrer: req.headers.get("referer"),
});

/**
 * POST bodies are optional on the resolve (a link without a password needs none); a body sent must
 * be JSON. Read once, under the size cap: a clone read to test for emptiness was read uncapped.
 */
export async function optionalJson(req: Request): Promise<unknown> {
  return (await readOptionalJson(req)) ?? {};
}

/** Request headers kept with what a visitor sends (a pricing-tool lead): enough to trace it, never credentials. */
export const traceOf = (req: Request, names = ["user-agent", "referer", "content-type"]): Record<string, string> =>
  Object.fromEntries(names.flatMap((h) => (req.headers.get(h) ? [[h, req.headers.get(h)!.slice(0, 500)]] : [])));
