import { domainToASCII } from "node:url";
import ipaddr from "ipaddr.js";

/** A DNS label in ASCII (punycode included): letters, digits and inner dashes, at most 63. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type DomainParse = { ok: true; domain: string } | { ok: false; reason: string };

/**
 * A site's domain as it is stored and compared: lower case, international names in their ASCII
 * (IDNA) form, no trailing dot, no port. Two spellings a browser treats as one host
 * (`ALPHA.localhost:3000`, `alpha.localhost.`) are one name, so no tenant can take another's host
 * by writing it differently (issue #32, D1). Ports are not part of a site's identity: a host
 * serves the same site on every port.
 */
export function parseDomain(raw: string): DomainParse {
  let s = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /[/?#@\\\s]/.test(s)) {
    return { ok: false, reason: "must be a host name such as www.imobiliaria.com.br, without scheme, path or spaces" };
  }
  // An IPv6 literal, bracketed or not, is reported as an IP address (reserved), not as a bad name.
  if (/^\[[0-9a-f:.]+\](?::\d+)?$/i.test(s) || (s.includes(":") && ipaddr.IPv6.isValid(s)))
    return { ok: true, domain: s.toLowerCase().replace(/^\[|\](?::\d+)?$/g, "") };
  s = s.replace(/:\d{1,5}$/, "").replace(/\.$/, "");
  // The WHATWG host parser, as browsers apply it: IDNA to ASCII, and numeric forms (`0x7f.1`) to the IPv4 address they mean.
  const ascii = domainToASCII(s);
  if (!ascii) return { ok: false, reason: "is not a valid host name (letters, digits, dashes and dots; international names are accepted)" };
  if (ascii.length > 253) return { ok: false, reason: "is longer than 253 characters" };
  if (ipaddr.IPv4.isValidFourPartDecimal(ascii)) return { ok: true, domain: ascii };
  const labels = ascii.split(".");
  if (labels.some((l) => !LABEL.test(l)))
    return { ok: false, reason: "has a label that is empty, longer than 63 characters, or holds characters other than letters, digits and inner dashes" };
  // `localhost` passes, to be refused as reserved (a clearer answer than "not a full name").
  if (labels.length < 2 && ascii !== "localhost") return { ok: false, reason: "must be a full host name such as www.imobiliaria.com.br or agencia.localhost" };
  return { ok: true, domain: ascii };
}

/** Whether a normalized name is an IP address rather than a host name. */
export function isIpLiteral(domain: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(domain) || (domain.includes(":") && ipaddr.IPv6.isValid(domain));
}

/**
 * The domain a request's `Host` header names, in the stored form (no port, no trailing dot, lower
 * case); "" when it is not a host name. Browsers send international names already in ASCII.
 */
export function domainOfHost(host: string | null | undefined): string {
  const h = (host ?? "").trim();
  if (!h || h.startsWith("[")) return "";
  const p = parseDomain(h);
  return p.ok && !isIpLiteral(p.domain) ? p.domain : "";
}
