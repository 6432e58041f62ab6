import { clientAddress } from "../http/client-address";
import { publicRoute } from "../http/public-route";
import { readJson } from "../http/read-json";
import type { RateGroup } from "../http/rate-limit";
import type { RouteCtx, Segment } from "../http/run";
import type { Visit } from "./record-access";

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

/** POST bodies are optional on the resolve (a link without a password needs none); a body sent must be JSON. */
export async function optionalJson(req: Request): Promise<unknown> {
  if (!(await req.clone().text()).trim()) return {};
  return readJson(req);
}
