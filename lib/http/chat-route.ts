import { publicRoute } from "./public-route";
import type { RateGroup } from "./rate-limit";
import type { RouteCtx, Segment } from "./run";

/**
 * A web-chat route under `/api/sites` (the visitor's side): the public wrapper (CORS, the rate
 * limit of its group per client address, error mapping), with answers never cached: they are one
 * visitor's conversation. A stream keeps its own `no-transform`, so nothing buffers its events.
 */
export function chatRoute<P>(group: RateGroup, handler: (c: RouteCtx<P>) => Promise<Response>) {
  const inner = publicRoute<P>(group, handler);
  return async (req: Request, segment?: Segment<P>) => {
    const res = await inner(req, segment);
    const stream = /event-stream/.test(res.headers.get("content-type") ?? "");
    res.headers.set("cache-control", stream ? "private, no-store, no-transform" : "private, no-store");
    return res;
  };
}
