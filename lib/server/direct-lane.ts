import http from "node:http";
import { stampClientAddress } from "./client-address-header";

/**
 * A handler the Node server calls before Next.js sees a request: true when it took the request
 * (and will answer it), false to leave it to Next.js.
 */
export type DirectRoute = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

const g = globalThis as unknown as { __crmDirectRoutes?: DirectRoute[] };

/**
 * Routes answered straight from the Node server, without Next.js's request handling (routing,
 * the Web `Request`'s stream, the proxy, response piping): about two thirds of a small
 * request's CPU on this stack (docs/decisions.md, "The lead intake's direct lane"). Only for
 * hot, machine-to-machine routes whose handler is a plain function of a `Request`; everything
 * else, and every request before boot installs a route, goes to Next.js as usual.
 *
 * Installed like the client address stamp (`./client-address-header.ts`), on the prototype of
 * `http.Server`, because `next start` creates its server before our code runs.
 */
export function addDirectRoute(route: DirectRoute): void {
  const routes = (g.__crmDirectRoutes ??= []);
  if (routes.includes(route)) return;
  routes.push(route);
  if (routes.length > 1) return;
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean };
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      // Whichever of the two patches runs first stamps: a direct route reads the address too.
      stampClientAddress(req);
      for (const r of routes) if (r(req, res)) return true;
    }
    return emit.call(this, event, ...args);
  };
}
