import http from "node:http";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";

/**
 * Route handlers see a `Request`, not the socket, and Next.js keeps a client's own
 * `X-Forwarded-For` instead of the socket address. So the server stamps the socket's address on
 * each request under a header of ours before Next.js sees it, overwriting any value a client sent:
 * rate limits then count the real connection unless `TRUST_PROXY` says to believe the proxy.
 */
export function installClientAddressHeader(): void {
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean; __crmStamped?: boolean };
  if (proto.__crmStamped) return;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") stampClientAddress(args[0] as http.IncomingMessage);
    return emit.call(this, event, ...args);
  };
  proto.__crmStamped = true;
}

/** The socket's address under our header, over any value the client sent (idempotent). */
export function stampClientAddress(req: http.IncomingMessage): void {
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "unknown";
}
