import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { addressRefusal, isLocalName, isPublicAddress, privateTargetsAllowed } from "../../../lib/outbound-fetch/address-policy";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

/** Address, and the range it is refused as (null: public, connected to). */
const CASES: [string, string | null][] = [
  // IPv4
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.5", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "cloud metadata"],
  ["169.254.170.2", "cloud metadata"],
  ["169.254.1.1", "cloud metadata"],
  ["100.100.100.200", "cloud metadata"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.255", "carrier-grade NAT"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.18.0.1", "reserved"],
  // IPv6
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["fe80::1", "link-local"],
  ["fc00::1", "unique-local"],
  ["fd12:3456::1", "unique-local"],
  ["fd00:ec2::254", "cloud metadata"],
  ["ff02::1", "multicast"],
  ["fec0::1", "site-local"],
  ["2001:db8::1", "reserved"],
  // IPv6 forms that carry an IPv4 address
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "IPv4-mapped loopback"],
  ["::ffff:10.0.0.5", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "cloud metadata"],
  ["::ffff:0:7f00:1", "IPv4-translated loopback"],
  ["::7f00:1", "IPv4-compatible"],
  ["::127.0.0.1", "IPv4-compatible"],
  ["::8.8.8.8", "IPv4-compatible"],
  ["64:ff9b::7f00:1", "NAT64 loopback"],
  ["64:ff9b::a00:5", "NAT64 private"],
  ["64:ff9b::a9fe:a9fe", "cloud metadata"],
  ["64:ff9b:1::a00:1", "local-use NAT64"],
  ["2002:7f00:1::1", "6to4 loopback"],
  ["2002:c0a8:101::1", "6to4 private"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  // Not addresses at all
  ["localhost", "invalid"],
  ["", "invalid"],
  // Public: connected to
  ["8.8.8.8", null],
  ["1.1.1.1", null],
  ["200.147.67.142", null],
  ["100.63.255.255", null],
  ["100.128.0.1", null],
  ["172.32.0.1", null],
  ["2001:4860:4860::8888", null],
  ["2606:4700:4700::1111", null],
  ["::ffff:8.8.8.8", null],
  ["64:ff9b::808:808", null],
  ["2002:808:808::1", null],
];

describe("outbound address policy", () => {
  it.each(CASES)("%s -> %s", (ip, range) => {
    expect(addressRefusal(ip, false)).toBe(range);
    expect(isPublicAddress(ip)).toBe(range === null);
  });

  it("accepts bracketed IPv6 as URLs write them", () => {
    expect(addressRefusal("[::1]", false)).toBe("loopback");
    expect(addressRefusal("[2001:4860:4860::8888]", false)).toBeNull();
  });

  it("allows private targets where the switch says so, but never the cloud metadata services", () => {
    for (const [ip, range] of CASES) {
      if (range === "invalid") continue;
      expect(addressRefusal(ip, true), ip).toBe(range === "cloud metadata" ? "cloud metadata" : null);
    }
  });

  it("the switch: allowed outside production, in production only with WEBHOOKS_ALLOW_PRIVATE_URLS=true", () => {
    expect(privateTargetsAllowed()).toBe(true);
    vi.stubEnv("NODE_ENV", "production");
    resetConfigForTests();
    expect(privateTargetsAllowed()).toBe(false);
    expect(addressRefusal("10.0.0.5")).toBe("private");
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
    resetConfigForTests();
    expect(privateTargetsAllowed()).toBe(true);
    expect(addressRefusal("10.0.0.5")).toBeNull();
  });

  it("names localhost and *.localhost as this machine without DNS", () => {
    for (const h of ["localhost", "LOCALHOST", "localhost.", "api.localhost", "a.b.localhost."]) expect(isLocalName(h), h).toBe(true);
    for (const h of ["localhost.example.com", "notlocalhost", "example.com"]) expect(isLocalName(h), h).toBe(false);
  });
});
