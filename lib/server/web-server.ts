import http from "node:http";
import next from "next";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { leadIntakeLane } from "../inbound/lead-intake-lane";
import { chatMessageLane } from "./chat-lane";
import { pageLane, pageCacheOn } from "../page-cache/page-lane";
import { startPageCacheListener } from "../page-cache/listener";
import { photoLane } from "../media/photo-lane";
import { metrics } from "../metrics/registry";
import { routeGroup } from "../metrics/route-group";
import { staticDocuments } from "./static-documents";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/**
 * What our Node server does with each request, in order, before and instead of Next.js:
 *
 * 1. The client address. Route handlers see a Web `Request`, not the socket, and Next.js passes on a
 *    client's own `X-Forwarded-For`; so the connection's address is stamped under a header of ours,
 *    over anything a client sent under that name. Rate limits count it (or, with `TRUST_PROXY`, the
 *    first `X-Forwarded-For` hop the proxy in front vouches for).
 * 2. Lead posts of the marketing channels, answered here by the route's own function without
 *    Next.js's request handling (the hottest machine-to-machine route; docs/decisions.md).
 *    Visitors' web-chat messages likewise (lib/server/chat-lane.ts).
 * 3. Listing photos (`/_media/`): resized variants from their cache, the same on every host.
 * 4. Site pages from the page cache (lib/page-cache/page-lane.ts): a hit is answered here; a miss
 *    goes on to Next.js, which renders it, and is kept (as `staticDocuments` leaves it) when the page may be.
 * 5. Everything else: Next.js; the HTML pages it renders pass through `staticDocuments`, which takes
 *    its client runtime out of the site pages that need none (docs/decisions.md).
 */
export function requestListener(nextHandler: Handler): http.RequestListener {
  return (req, res) => {
    const address = req.socket.remoteAddress;
    // A socket without an address is already closed: nobody to answer.
    if (!address) return void res.destroy();
    req.headers[CLIENT_ADDRESS_HEADER] = address;
    measure(req, res);
    if (leadIntakeLane(req, res)) return;
    if (chatMessageLane(req, res)) return;
    if (photoLane(req, res)) return;
    // The page cache wraps the answer first, so it keeps the page as `staticDocuments` finishes it.
    if (pageLane(req, res)) return;
    staticDocuments(req, res);
    void nextHandler(req, res);
  };
}

/** Every request passes here, lanes included: counted and timed by route group when answered. */
function measure(req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = process.hrtime.bigint();
  res.once("finish", () => {
    const m = metrics();
    const group = routeGroup(req.url);
    const method = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].includes(req.method ?? "") ? req.method! : "other";
    m.httpRequests.inc({ group, method, status: `${Math.floor(res.statusCode / 100)}xx` });
    m.httpDuration.observe({ group }, Number(process.hrtime.bigint() - started) / 1e9);
  });
}

export type WebServerOptions = { dev: boolean; port: number; hostname?: string };

/**
 * The service's HTTP server: ours, with Next.js's documented custom-server API behind it
 * (`next()`, `getRequestHandler()`). `next start` would create a server we could not reach into.
 */
export async function startWebServer(o: WebServerOptions): Promise<http.Server> {
  const server = http.createServer();
  // As `next start`: idle keep-alive connections live long enough for a load balancer's reuse.
  server.keepAliveTimeout = 65_000;
  const app = next({ dev: o.dev, dir: process.cwd(), port: o.port, hostname: o.hostname ?? "localhost", httpServer: server });
  await app.prepare();
  server.on("request", requestListener(app.getRequestHandler()));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Every interface unless told: never 127.0.0.1 alone (STACK-NOTES: next-intl's redirect loop).
    server.listen(o.port, o.hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await assertClientAddressReachesRoutes(o.port);
  // Listening before the first page is asked: until it is, pages are rendered uncached.
  if (pageCacheOn()) await startPageCacheListener();
  return server;
}

/**
 * Proves, through the whole stack, that route handlers see the client's address: a server that
 * could not would put every visitor in one rate-limit bucket, so it does not start. The readiness
 * route reports whether the request reached it stamped.
 */
async function assertClientAddressReachesRoutes(port: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`, { headers: { [CLIENT_ADDRESS_HEADER]: "" } });
  const body = (await res.json().catch(() => null)) as { checks?: { clientAddress?: string } } | null;
  if (body?.checks?.clientAddress !== "ok") {
    throw new Error(
      "requests do not reach the routes with their client's address (the readiness route saw none); rate limits cannot count clients apart, so the server does not start",
    );
  }
}
