/**
 * Issue #32, D1: one tenant could take over another tenant's host name by writing it another way
 * (`alpha-site.localhost:3000`, `ALPHA-SITE.localhost`, `alpha-site.localhost.`) or by taking a
 * name under the share domain; custom domains served before anyone proved they own them.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as resolveRoute from "../../../app/api/sites/resolve/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import * as verifyRoute from "../../../app/api/v1/sites/[siteId]/domain/verify/route";
import * as sitesRoute from "../../../app/api/v1/sites/route";
import { getDb } from "../../../db/client";
import { inboundLeads, sites } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { receiveSiteLead } from "../../../lib/leads/inbound/site-lead";
import { resolveSite } from "../../../lib/sites/render/resolve-site";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { fakeDns, makeSite } from "../../helpers/sites";

const create = (t: TestTenant, domain: string, extra: Record<string, unknown> = {}) =>
  call(sitesRoute.POST, "POST", "/api/v1/sites", { key: t.key, body: { name: "Site", domain, published: true, ...extra } });
const verify = (t: TestTenant, siteId: string) => call(verifyRoute.POST, "POST", "/x", { key: t.key, params: { siteId } });
const siteCount = async (t: TestTenant) => (await getDb()).$count(sites, eq(sites.tenantId, t.tenantId));
const servedBy = async (host: string) => {
  const r = await resolveSite({ kind: "domain", host }, "pt-BR");
  return typeof r === "string" ? null : r.row.tenantId;
};

let alpha: TestTenant;
let beta: TestTenant;

beforeAll(async () => {
  alpha = await makeTenant();
  beta = await makeTenant();
});

afterEach(() => {
  delete process.env.SITES_BASE_DOMAIN;
  delete process.env.SERVICE_HOSTS;
  resetConfigForTests();
});

describe("one name, one site (the probe's requests)", () => {
  it("refuses another spelling of a held name with 409 domain_taken and creates nothing", async () => {
    const held = await create(alpha, "alpha-site.localhost");
    expect(held.status).toBe(201);
    const before = await siteCount(beta);
    for (const spelling of ["alpha-site.localhost:3000", "ALPHA-SITE.localhost", "alpha-site.localhost.", "Alpha-Site.LOCALHOST.:3000"]) {
      const res = await create(beta, spelling);
      expect(res.status, spelling).toBe(409);
      expect(res.body.error.code, spelling).toBe("domain_taken");
    }
    // Moving an existing site onto it is refused the same way, and leaves the site as it was.
    const own = await makeSite(beta);
    const moved = await call(siteRoute.PATCH, "PATCH", "/x", { key: beta.key, params: { siteId: own.id }, body: { domain: "ALPHA-SITE.localhost:3000" } });
    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe("domain_taken");
    expect((await call(siteRoute.GET, "GET", "/x", { key: beta.key, params: { siteId: own.id } })).body.domain).toBe(own.domain);
    expect(await siteCount(beta)).toBe(before + 1);
  });

  it("serves the holder on every spelling of its host, and leads posted there reach the holder", async () => {
    const held = await create(alpha, "alpha-leads.localhost");
    expect(held.body).toMatchObject({ domain: "alpha-leads.localhost", domainStatus: "active", domainVerification: null });
    for (const host of ["alpha-leads.localhost", "alpha-leads.localhost:3000", "ALPHA-LEADS.localhost:8080", "alpha-leads.localhost."]) {
      expect(await servedBy(host), host).toBe(alpha.tenantId);
    }
    // A lead sent from the site's form on another spelling of the host lands in the holder's tenant.
    for (const t of [alpha, beta]) {
      const ch = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Site", kind: "website" } });
      expect(ch.status).toBe(201);
    }
    const site = await resolveSite({ kind: "domain", host: "ALPHA-LEADS.localhost:3000" }, "pt-BR");
    if (typeof site === "string") throw new Error(`not served: ${site}`);
    await receiveSiteLead(
      site.db,
      site.row,
      { name: "Visitante", phone: "+55 11 98888-1234", message: "Quero visitar", locale: "pt-BR" },
      { userAgent: "test" },
    );
    const db = await getDb();
    expect(await db.$count(inboundLeads, eq(inboundLeads.tenantId, alpha.tenantId))).toBe(1);
    expect(await db.$count(inboundLeads, eq(inboundLeads.tenantId, beta.tenantId))).toBe(0);
  });

  it("reserves the share domain and every name under it, the service's names, localhost and IP addresses (400 domain_reserved)", async () => {
    process.env.SERVICE_HOSTS = "crm.imobi.example, api.imobi.example:8443";
    resetConfigForTests();
    const before = await siteCount(beta);
    const names = [
      `${alpha.slug}.share.localhost`,
      `${alpha.slug}.share.localhost:3000`,
      "share.localhost",
      "x.y.share.localhost.",
      "crm.imobi.example",
      "API.imobi.example",
      "localhost",
      "localhost:3000",
      "127.0.0.1",
      "10.0.0.8",
      "[::1]",
      "::1",
      "[::ffff:7f00:1]",
      "0x7f.1",
      "2130706433",
    ];
    for (const domain of names) {
      const res = await create(beta, domain);
      expect(res.status, domain).toBe(400);
      expect(res.body.error.code, domain).toBe("domain_reserved");
    }
    expect(await siteCount(beta)).toBe(before);
    // A name under the share domain never serves a site, even one stored before these rules.
    const db = await getDb();
    await db.insert(sites).values({
      tenantId: beta.tenantId,
      name: "Legado",
      domain: `${alpha.slug}.share.localhost`,
      configuration: {
        puck_data: {},
        siteConfiguration: { brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} },
        otherConfigs: null,
      },
      listingCriteria: { propertyTypes: [], locations: [] },
      published: true,
    });
    expect(await servedBy(`${alpha.slug}.share.localhost:3000`)).toBeNull();
  });

  it("stores names normalized: lower case, IDNA, no port, no trailing dot", async () => {
    // RFC 3492's and IDNA's textbook example: "Bücher" is "xn--bcher-kva".
    const res = await create(alpha, "Bücher.COM.br.");
    expect(res.status).toBe(201);
    expect(res.body.domain).toBe("xn--bcher-kva.com.br");
    expect(res.body.domainStatus).toBe("pending");
    const taken = await create(beta, "xn--bcher-kva.com.br:443");
    // Another tenant's pending claim blocks nothing: both wait for their proof.
    expect(taken.status).toBe(201);
    expect(taken.body.domainStatus).toBe("pending");
  });
});

describe("custom domains serve only once proven in DNS", () => {
  it("shows the TXT record to create, serves nothing while pending, and serves after verify finds the record", async () => {
    const dns = await fakeDns();
    const res = await create(alpha, "www.alpha-imoveis.com.br");
    expect(res.status).toBe(201);
    expect(res.body.domainStatus).toBe("pending");
    expect(res.body.domainVerification).toEqual({
      type: "TXT",
      name: "_imobicrm.www.alpha-imoveis.com.br",
      value: expect.stringMatching(/^imobicrm-verify=[\w-]{24}$/),
    });
    const headers = { [CLIENT_ADDRESS_HEADER]: "10.8.0.1" };
    expect((await call(resolveRoute.GET, "GET", "/x", { query: { domain: "www.alpha-imoveis.com.br" }, headers })).status).toBe(404);
    expect(await servedBy("www.alpha-imoveis.com.br")).toBeNull();

    // No record yet: 409 naming the record to create; a wrong value is no proof either.
    const missing = await verify(alpha, res.body.id);
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe("domain_not_verified");
    expect(missing.body.error.message).toContain("_imobicrm.www.alpha-imoveis.com.br");
    expect(missing.body.error.message).toContain(res.body.domainVerification.value);
    dns.txt.set("_imobicrm.www.alpha-imoveis.com.br", ["imobicrm-verify=someone-else", "v=spf1 -all"]);
    expect((await verify(alpha, res.body.id)).body.error.code).toBe("domain_not_verified");
    expect(dns.questions).toContain("TXT _imobicrm.www.alpha-imoveis.com.br");

    dns.txt.set("_imobicrm.www.alpha-imoveis.com.br", ["v=spf1 -all", res.body.domainVerification.value]);
    const ok = await verify(alpha, res.body.id);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ domainStatus: "active", domainVerification: null });
    expect((await call(resolveRoute.GET, "GET", "/x", { query: { domain: "WWW.alpha-imoveis.com.br" }, headers })).status).toBe(200);
    expect(await servedBy("www.alpha-imoveis.com.br:443")).toBe(alpha.tenantId);
    // Verified again: answered as it is.
    expect((await verify(alpha, res.body.id)).status).toBe(200);
    // Held now: another tenant cannot even claim it.
    expect((await create(beta, "www.alpha-imoveis.com.br")).status).toBe(409);
  });

  it("with two pending claims, the first to prove the name holds it and the other claim is dropped", async () => {
    const dns = await fakeDns();
    const squatter = await create(alpha, "www.disputado.com.br");
    const owner = await create(beta, "www.disputado.com.br");
    expect([squatter.status, owner.status]).toEqual([201, 201]);
    // A tenant does not claim one name twice.
    expect((await create(beta, "WWW.disputado.com.br")).body.error.code).toBe("domain_taken");
    dns.txt.set("_imobicrm.www.disputado.com.br", [owner.body.domainVerification.value]);
    expect((await verify(beta, owner.body.id)).body.domainStatus).toBe("active");
    const dropped = await call(siteRoute.GET, "GET", "/x", { key: alpha.key, params: { siteId: squatter.body.id } });
    expect(dropped.body.domainStatus).toBe("taken");
    // The squatter's own record, later, proves nothing: the name has a holder.
    dns.txt.set("_imobicrm.www.disputado.com.br", [squatter.body.domainVerification.value]);
    const late = await verify(alpha, squatter.body.id);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("domain_taken");
    expect(await servedBy("www.disputado.com.br")).toBe(beta.tenantId);
    // A new name for the dropped site starts a claim afresh.
    const renamed = await call(siteRoute.PATCH, "PATCH", "/x", {
      key: alpha.key,
      params: { siteId: squatter.body.id },
      body: { domain: "www.alpha-outro.com.br" },
    });
    expect(renamed.body).toMatchObject({ domain: "www.alpha-outro.com.br", domainStatus: "pending" });
  });

  it("two proofs of one name at once: one holds it, the other is told it is taken", async () => {
    const dns = await fakeDns();
    const a = await create(alpha, "www.corrida.com.br");
    const b = await create(beta, "www.corrida.com.br");
    dns.txt.set("_imobicrm.www.corrida.com.br", [a.body.domainVerification.value, b.body.domainVerification.value]);
    const [ra, rb] = await Promise.all([verify(alpha, a.body.id), verify(beta, b.body.id)]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    expect([ra, rb].find((r) => r.status === 409)!.body.error.code).toBe("domain_taken");
    const db = await getDb();
    expect(await db.$count(sites, and(eq(sites.domain, "www.corrida.com.br"), eq(sites.domainStatus, "active")))).toBe(1);
  });

  it("a custom domain held from before proofs existed serves until someone proves it: its owner keeps it by proving it, or another tenant's proof takes it over", async () => {
    const dns = await fakeDns();
    const db = await getDb();
    // As migration 0035 leaves such a row: held, with a token, never proven.
    const legacy = async (t: TestTenant, domain: string) =>
      (
        await db
          .insert(sites)
          .values({
            tenantId: t.tenantId,
            name: "Legado",
            domain,
            published: true,
            domainStatus: "active",
            domainToken: `imobicrm-verify=${domain.length}abc`,
            configuration: {
              puck_data: {},
              siteConfiguration: { brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} },
              otherConfigs: null,
            },
            listingCriteria: { propertyTypes: [], locations: [] },
          })
          .returning()
      )[0];
    const squatted = await legacy(alpha, "www.legado-disputado.com.br");
    expect(await servedBy("www.legado-disputado.com.br")).toBe(alpha.tenantId);
    const shown = await call(siteRoute.GET, "GET", "/x", { key: alpha.key, params: { siteId: squatted.id } });
    expect(shown.body.domainVerification).toEqual({ type: "TXT", name: "_imobicrm.www.legado-disputado.com.br", value: squatted.domainToken });
    const claim = await create(beta, "www.legado-disputado.com.br");
    expect(claim.body.domainStatus).toBe("pending");
    dns.txt.set("_imobicrm.www.legado-disputado.com.br", [claim.body.domainVerification.value]);
    expect((await verify(beta, claim.body.id)).body.domainStatus).toBe("active");
    expect(await servedBy("www.legado-disputado.com.br")).toBe(beta.tenantId);
    expect((await call(siteRoute.GET, "GET", "/x", { key: alpha.key, params: { siteId: squatted.id } })).body.domainStatus).toBe("taken");

    const kept = await legacy(alpha, "www.legado-da-alfa.com.br");
    dns.txt.set("_imobicrm.www.legado-da-alfa.com.br", [kept.domainToken!]);
    const proven = await verify(alpha, kept.id);
    expect(proven.body).toMatchObject({ domainStatus: "active", domainVerification: null });
    expect((await create(beta, "www.legado-da-alfa.com.br")).body.error.code).toBe("domain_taken");
  });

  it("answers 503 dns_unavailable when the DNS servers do not answer, and changes nothing", async () => {
    const dns = await fakeDns();
    const res = await create(alpha, "www.dns-mudo.com.br");
    dns.silent.add("_imobicrm.www.dns-mudo.com.br");
    const out = await verify(alpha, res.body.id);
    expect(out.status).toBe(503);
    expect(out.body.error.code).toBe("dns_unavailable");
    const db = await getDb();
    const [row] = await db
      .select({ status: sites.domainStatus })
      .from(sites)
      .where(and(eq(sites.id, res.body.id), eq(sites.tenantId, alpha.tenantId)));
    expect(row.status).toBe("pending");
  }, 20_000);

  it("hands out {slug}.SITES_BASE_DOMAIN and names under it at once, and reserves the rest of the base domain", async () => {
    process.env.SITES_BASE_DOMAIN = "sites.imobi.example";
    resetConfigForTests();
    const own = await create(alpha, `${alpha.slug}.sites.imobi.example`);
    expect(own.body).toMatchObject({ domainStatus: "active", domainVerification: null });
    expect((await create(alpha, `lancamentos.${alpha.slug}.sites.imobi.example`)).body.domainStatus).toBe("active");
    for (const name of [`${alpha.slug}.sites.imobi.example`, "sites.imobi.example", "qualquer.sites.imobi.example"]) {
      const res = await create(beta, name);
      expect(res.status, name).toBe(400);
      expect(res.body.error.code, name).toBe("domain_reserved");
    }
  });

  it("another tenant's key can neither read nor verify a site (404)", async () => {
    const res = await create(alpha, "www.alpha-privado.com.br");
    expect((await verify(beta, res.body.id)).status).toBe(404);
  });
});
