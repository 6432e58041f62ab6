import dns from "node:dns";
import net from "node:net";
import { addressRefusal, isLocalName, privateTargetsAllowed } from "./address-policy";
import { refused, type OutboundError } from "./outbound-error";

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * The refusal for a URL's host that is decided without DNS: an IP literal (the socket connects to
 * it without calling any lookup) or a `localhost` name. Null when the host must be resolved, or
 * is allowed.
 */
export function hostRefusal(hostname: string): OutboundError | null {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    const range = addressRefusal(host);
    return range ? refused(`${host} is a non-public address (${range})`) : null;
  }
  if (isLocalName(host) && !privateTargetsAllowed()) return refused(`${host} is a non-public address (loopback name)`);
  return null;
}

/**
 * The DNS lookup every outbound socket connects through (undici's `connect.lookup`). Every address
 * the name resolves to is checked, and the socket connects to the addresses returned here, so
 * there is no second lookup a rebinding DNS server could answer differently.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  const early = hostRefusal(hostname);
  if (early) {
    callback(early as unknown as NodeJS.ErrnoException, "");
    return;
  }
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as dns.LookupAddress[];
    for (const a of list) {
      const range = addressRefusal(a.address);
      // Not the address itself: delivery logs are the tenant's to read, the internal network is not.
      if (range) return callback(refused(`${hostname} resolves to a non-public address (${range})`) as unknown as NodeJS.ErrnoException, "");
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
}
