import dns from "node:dns";
import net from "node:net";
import { invalid } from "../errors/domain-errors";
import { addressRefusal, isLocalName, privateTargetsAllowed } from "./address-policy";

const DNS_TIMEOUT_MS = 3000;

/** Every address `host` resolves to, or null when it does not resolve (now, or within the timeout). */
async function resolveAll(host: string, timeoutMs: number): Promise<string[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((ok) => {
    timer = setTimeout(() => ok(null), timeoutMs);
  });
  try {
    const found = dns.promises.lookup(host, { all: true, verbatim: true }).then(
      (list) => list.map((a) => a.address),
      () => null,
    );
    return await Promise.race([found, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Refuses, when a URL is saved, a receiver or gateway that the outbound guard would refuse when it
 * is used: an IP literal or `localhost` name, or a name that resolves now to a non-public address
 * (any of its addresses). A name that does not resolve (yet) is accepted: DNS is often set up after
 * the receiver is configured, and every connection is checked again anyway. `field` names the body
 * field in the 400; `internal` says what the switch is for ("an internal receiver"). Where private
 * targets are allowed only a cloud metadata literal is refused, without DNS.
 */
export async function assertPublicUrl(field: string, raw: string, internal: string, dnsTimeoutMs = DNS_TIMEOUT_MS): Promise<void> {
  const host = hostOf(raw);
  if (!host) return;
  const refuse = (what: string, range: string) =>
    invalid(
      range === "cloud metadata"
        ? `body field \`${field}\`: ${what}; give the address of a server you run.`
        : `body field \`${field}\`: ${what}; give a public address, or set WEBHOOKS_ALLOW_PRIVATE_URLS=true for ${internal}.`,
    );
  if (net.isIP(host)) {
    const range = addressRefusal(host);
    if (range) throw refuse(`${host} is ${article(range)} ${range} address`, range);
    return;
  }
  if (privateTargetsAllowed()) return;
  if (isLocalName(host)) throw refuse(`${host} names this machine (loopback)`, "loopback");
  for (const address of (await resolveAll(host, dnsTimeoutMs)) ?? []) {
    const range = addressRefusal(address);
    // The address itself is not echoed: a tenant must not map the internal network through this answer.
    if (range) throw refuse(`${host} resolves to ${article(range)} ${range} address`, range);
  }
}

const article = (word: string) => (/^(?:[aeio]|un(?!i)|IPv)/i.test(word) ? "an" : "a");

function hostOf(raw: string): string | null {
  try {
    return new URL(raw).hostname.replace(/^\[|\]$/g, "") || null;
  } catch {
    return null;
  }
}
