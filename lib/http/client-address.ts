import { config } from "../config";

/**
 * Set by the server on every incoming request from the socket's address (see
 * `lib/server/web-server.ts`), overwriting whatever a client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-crm-client-address";

/**
 * The client's address for rate limits: the connection's, or with `TRUST_PROXY=true` the first
 * `X-Forwarded-For` hop (the reverse proxy in front of us vouches for it). Without either (tests,
 * a handler called in-process) every caller shares one bucket, which errs on the strict side.
 */
export function clientAddress(headers: Headers): string {
  if (config().TRUST_PROXY) {
    const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return headers.get(CLIENT_ADDRESS_HEADER)?.slice(0, 64) || "unknown";
}
