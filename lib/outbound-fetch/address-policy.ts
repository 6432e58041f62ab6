import ipaddr from "ipaddr.js";
import { config } from "../config";

/**
 * Whether outbound requests may reach loopback, private and other non-public addresses: always
 * outside production (development and tests use receivers on 127.0.0.1), and in production only
 * with WEBHOOKS_ALLOW_PRIVATE_URLS=true (an installation whose receivers live on its own network).
 */
export function privateTargetsAllowed(): boolean {
  const c = config();
  return c.NODE_ENV !== "production" || c.WEBHOOKS_ALLOW_PRIVATE_URLS;
}

/** ipaddr.js range names, as a person reads them in an error message. */
const LABELS: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private",
  uniqueLocal: "unique-local",
  deprecatedSiteLocal: "site-local",
};
const label = (range: string) => LABELS[range] ?? "reserved";

const v6 = (s: string) => ipaddr.IPv6.parse(s);
const NAT64 = v6("64:ff9b::");
const NAT64_LOCAL = v6("64:ff9b:1::");
const TRANSLATED = v6("::ffff:0:0:0");
const SIX_TO_FOUR = v6("2002::");
const TEREDO = v6("2001::");
const AWS_METADATA_V6 = v6("fd00:ec2::254");
const LINK_LOCAL_V4 = ipaddr.IPv4.parse("169.254.0.0");
const ALIBABA_METADATA = ipaddr.IPv4.parse("100.100.100.200");

const v4From = (hi: number, lo: number) => ipaddr.IPv4.parse(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);

/**
 * The IPv4 address an IPv6 form carries to (mapped, translated, NAT64, 6to4), with the form's
 * name, or null. These forms reach the embedded IPv4 host, so that host decides.
 */
function embeddedV4(a: ipaddr.IPv6): { v4: ipaddr.IPv4; form: string } | null {
  const p = a.parts;
  if (a.isIPv4MappedAddress()) return { v4: a.toIPv4Address(), form: "IPv4-mapped" };
  if (a.match(TRANSLATED, 96)) return { v4: v4From(p[6], p[7]), form: "IPv4-translated" };
  if (a.match(NAT64, 96)) return { v4: v4From(p[6], p[7]), form: "NAT64" };
  if (a.match(SIX_TO_FOUR, 16)) return { v4: v4From(p[1], p[2]), form: "6to4" };
  return null;
}

function v4Range(a: ipaddr.IPv4): string | null {
  const r = a.range();
  return r === "unicast" ? null : label(r);
}

function v6Range(a: ipaddr.IPv6): string | null {
  const inner = embeddedV4(a);
  if (inner) {
    const r = v4Range(inner.v4);
    return r && `${inner.form} ${r}`;
  }
  const r = a.range();
  if (r === "unspecified" || r === "loopback") return label(r);
  // The deprecated IPv4-compatible form (::a.b.c.d) and local-use NAT64 reach hosts we cannot see.
  if (a.parts.slice(0, 6).every((x) => x === 0)) return "IPv4-compatible";
  if (a.match(NAT64_LOCAL, 48)) return "local-use NAT64";
  // Teredo hides its client's address; no receiver is served from one.
  if (a.match(TEREDO, 32)) return "Teredo";
  return r === "unicast" ? null : label(r);
}

/**
 * Cloud metadata services (AWS, GCP, Azure, DigitalOcean, OCI on 169.254.169.254, ECS on
 * 169.254.170.2, AWS over IPv6, Alibaba): refused even where private targets are allowed, since no
 * internal receiver lives there and they hand out the machine's credentials.
 */
function isMetadata(a: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const v4 = a.kind() === "ipv4" ? (a as ipaddr.IPv4) : embeddedV4(a as ipaddr.IPv6)?.v4;
  if (v4) return v4.match(LINK_LOCAL_V4, 16) || v4.toString() === ALIBABA_METADATA.toString();
  return (a as ipaddr.IPv6).toNormalizedString() === AWS_METADATA_V6.toNormalizedString();
}

/**
 * An IPv6 address's dotted IPv4 tail in hex, as the socket reads it: ipaddr.js reads `::a.b.c.d`
 * as IPv4-mapped (`::ffff:a.b.c.d`), which would make the IPv4-compatible `::8.8.8.8` look public.
 */
function hexTail(ip: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m || !ip.includes(":")) return ip;
  const [a, b, c, d] = m.slice(2).map(Number);
  if ([a, b, c, d].some((x) => x > 255)) return ip;
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Why `ip` may not be connected to, as the name of its range ("loopback", "private",
 * "IPv4-mapped loopback"...), or null when it is a public unicast address (or private targets are
 * allowed). Something that is not an IP address is refused as "invalid".
 */
export function addressRefusal(ip: string, allowPrivate = privateTargetsAllowed()): string | null {
  const bare = hexTail(ip.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (!ipaddr.isValid(bare)) return "invalid";
  const a = ipaddr.parse(bare);
  if (isMetadata(a)) return "cloud metadata";
  if (allowPrivate) return null;
  return a.kind() === "ipv4" ? v4Range(a as ipaddr.IPv4) : v6Range(a as ipaddr.IPv6);
}

export const isPublicAddress = (ip: string) => addressRefusal(ip, false) === null;

/** `localhost` and `*.localhost` name this machine whatever DNS says (RFC 6761): refused by name. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}
