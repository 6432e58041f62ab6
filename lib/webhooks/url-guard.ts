import dns from "node:dns";
import ipaddr from "ipaddr.js";
import { config } from "../config";

/** Private, loopback, link-local and other non-public ranges are refused in production. */
export function privateTargetsAllowed(): boolean {
  const c = config();
  return c.NODE_ENV !== "production" || c.WEBHOOKS_ALLOW_PRIVATE_URLS;
}

export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
    // Deprecated IPv4-compatible (::a.b.c.d) and NAT64 prefixes can route to an embedded IPv4 address.
    else if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
    else if (v6.match(ipaddr.IPv6.parse("64:ff9b::"), 96) || v6.match(ipaddr.IPv6.parse("64:ff9b:1::"), 48)) return false;
  }
  return addr.range() === "unicast";
}

const isLoopbackHost = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || (ipaddr.isValid(host.replace(/^\[|\]$/g, "")) && !isPublicAddress(host.replace(/^\[|\]$/g, "")));

/**
 * Why a webhook URL is not acceptable, or null. https everywhere; plain http only to a loopback
 * or private host, and only where private targets are allowed (development, test, or
 * WEBHOOKS_ALLOW_PRIVATE_URLS=true).
 */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL such as https://example.com/webhooks";
  }
  if (url.username || url.password) return "must not contain credentials; use the bearer option instead";
  if (url.protocol === "https:") return null;
  // Only mention plain http where this installation would accept it: production never does.
  if (url.protocol !== "http:" || !privateTargetsAllowed()) return "must use https: give an https:// address your server answers on";
  if (!isLoopbackHost(url.hostname)) return "must use https (this development installation accepts plain http only for a loopback or private address)";
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * DNS lookup used when connecting: the address actually connected to is checked, so a host that
 * resolves to a private address (or changes its answer between checks) is refused.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as dns.LookupAddress[];
    if (!privateTargetsAllowed()) {
      const bad = list.find((a) => !isPublicAddress(a.address));
      if (bad) {
        const e = new Error(`refused: ${hostname} resolves to the non-public address ${bad.address}`) as NodeJS.ErrnoException;
        e.code = "EPRIVATEADDRESS";
        return callback(e, "");
      }
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
}
