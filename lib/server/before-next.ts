import http from "node:http";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";

/**
 * A handler the Node server calls before Next.js sees a request: true when it took the request
 * (and will answer it), false to leave it to Next.js.
 */
export type DirectRoute = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

type Proto = { emit: (event: string, ...args: unknown[]) => boolean; __crmBeforeNext?: boolean };
const g = globalThis as unknown as { __crmDirectRoutes?: DirectRoute[] };
const routes = (g.__crmDirectRoutes ??= []);

/**
 * What the Node server does with each request before Next.js sees it. `next start` creates its
 * server before our code runs, so this is one patch of `http.Server`'s prototype, installed once:
 *
 * 1. The client address. Route handlers see a `Request`, not the socket, and Next.js keeps a
 *    client's own `X-Forwarded-For` instead of the socket address. So the socket's address is
 *    stamped under a header of ours, overwriting any value a client sent: rate limits then count
 *    the real connection unless `TRUST_PROXY` says to believe the proxy.
 * 2. Direct routes (`addDirectRoute`), answered here without Next.js's request handling.
 */
export function installBeforeNext(): void {
  const proto = http.Server.prototype as unknown as Proto;
  if (proto.__crmBeforeNext) return;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      req.headers[CLIENT_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "unknown";
      for (const r of routes) if (r(req, res)) return true;
    }
    return emit.call(this, event, ...args);
  };
  proto.__crmBeforeNext = true;
}

/**
 * Routes answered straight from the Node server, without Next.js's request handling (routing,
 * the Web `Request`'s stream, the proxy, response piping): most of a small request's CPU on this
 * stack (docs/decisions.md, "The lead webhook answers from a direct lane, before Next.js"). Only
 * for hot, machine-to-machine routes whose handler is a plain function of a `Request`; everything
 * else, and every request before a route is added, goes to Next.js as usual.
 */
export function addDirectRoute(route: DirectRoute): void {
  installBeforeNext();
  if (!routes.includes(route)) routes.push(route);
}
