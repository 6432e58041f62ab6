import * as sitesRoute from "../../app/api/v1/sites/route";
import * as verifyRoute from "../../app/api/v1/sites/[siteId]/domain/verify/route";
import { resetConfigForTests } from "../../lib/config";
import { startFakeDns, type FakeDns } from "../fakes/dns-server";
import type { TestTenant } from "./factories";
import { call } from "./http";

let n = 0;

/** A site of the tenant made through the tenant API (active and published unless told otherwise). */
export async function makeSite(t: TestTenant, over: Record<string, unknown> = {}): Promise<{ id: string; domain: string; body: any }> {
  // Under localhost: held at once (a custom domain would wait for its DNS proof).
  const domain = `site-${Date.now().toString(36)}-${++n}.localhost`;
  const res = await call(sitesRoute.POST, "POST", "/api/v1/sites", { key: t.key, body: { name: `Site ${n}`, domain, published: true, ...over } });
  if (res.status !== 201) throw new Error(`makeSite: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, domain: res.body.domain, body: res.body };
}

let dns: FakeDns | undefined;

/** The file's DNS server on 127.0.0.1, which the service asks through `DNS_SERVERS`. */
export async function fakeDns(): Promise<FakeDns> {
  if (!dns) {
    dns = await startFakeDns();
    process.env.DNS_SERVERS = dns.address;
    resetConfigForTests();
  }
  return dns;
}

/**
 * A site on a custom domain, proven as its owner would: the TXT record the site asks for is
 * published on the test's DNS server, then `POST /domain/verify`.
 */
export async function makeVerifiedSite(t: TestTenant, domain: string, over: Record<string, unknown> = {}): Promise<{ id: string; domain: string; body: any }> {
  const d = await fakeDns();
  const site = await makeSite(t, { domain, ...over });
  const record = site.body.domainVerification;
  if (!record) throw new Error(`makeVerifiedSite: ${domain} needs no proof (status ${site.body.domainStatus})`);
  d.txt.set(record.name, [record.value]);
  const res = await call(verifyRoute.POST, "POST", `/api/v1/sites/${site.id}/domain/verify`, { key: t.key, params: { siteId: site.id } });
  if (res.status !== 200) throw new Error(`makeVerifiedSite: verify answered ${res.status} ${JSON.stringify(res.body)}`);
  return { id: site.id, domain: res.body.domain, body: res.body };
}
