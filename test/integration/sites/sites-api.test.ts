import { describe, expect, it } from "vitest";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import * as sitesRoute from "../../../app/api/v1/sites/route";
import { makeMember, makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const puck = { root: { props: { title: "Início" } }, content: [{ type: "Hero", props: { id: "hero-1", title: "Encontre seu imóvel" } }] };

describe("tenant-side sites API", () => {
  it("creates with defaults, reads, lists, patches and deletes a site; puck_data is stored as sent", async () => {
    const t = await makeTenant();
    const created = await call(sitesRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Site principal", domain: "www.casa-nova.com.br", configuration: { puck_data: puck } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Site principal",
      domain: "www.casa-nova.com.br",
      active: true,
      published: false,
      includeNetworkListings: false,
      metaPixel: null,
      listingCriteria: { propertyTypes: [], locations: [] },
    });
    expect(created.body.configuration.puck_data).toEqual(puck);
    expect(created.body.configuration.siteConfiguration).toEqual({ brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} });
    const id = created.body.id;
    expect((await call(siteRoute.GET, "GET", "/x", { key: t.key, params: { siteId: id } })).body.id).toBe(id);
    expect((await call(sitesRoute.GET, "GET", "/x", { key: t.key })).body.items.map((s: any) => s.id)).toEqual([id]);
    const patched = await call(siteRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { siteId: id },
      body: {
        published: true,
        listingCriteria: { propertyTypes: ["apartment"], locations: ["São Paulo"], marketType: "secondary" },
        metaPixel: { pixelId: "123456789", events: { viewContent: true, search: false, lead: true } },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ published: true, listingCriteria: { marketType: "secondary" }, metaPixel: { pixelId: "123456789" } });
    expect(patched.body.configuration.puck_data).toEqual(puck);
    expect((await call(siteRoute.DELETE, "DELETE", "/x", { key: t.key, params: { siteId: id } })).body).toEqual({ id, deleted: true });
    expect((await call(siteRoute.GET, "GET", "/x", { key: t.key, params: { siteId: id } })).status).toBe(404);
  });

  it("keeps domains unique across tenants (409 domain_taken) and refuses what is not a host name", async () => {
    const a = await makeTenant();
    const b = await makeTenant();
    const site = await makeSite(a);
    const taken = await call(sitesRoute.POST, "POST", "/x", { key: b.key, body: { name: "Copy", domain: site.domain } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("domain_taken");
    const other = await makeSite(b);
    const moved = await call(siteRoute.PATCH, "PATCH", "/x", { key: b.key, params: { siteId: other.id }, body: { domain: site.domain } });
    expect(moved.status).toBe(409);
    for (const domain of ["https://casa.com.br", "casa.com.br/path", "", "casa..com", "-casa.com", "casa_bonita.com", "casa"]) {
      const res = await call(sitesRoute.POST, "POST", "/x", { key: b.key, body: { name: "X", domain } });
      expect(res.status, domain).toBe(400);
      expect(res.body.error.message, domain).toMatch(/domain/);
    }
    const local = await call(sitesRoute.POST, "POST", "/x", { key: b.key, body: { name: "Local", domain: "Agencia.localhost:3000" } });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ domain: "agencia.localhost", domainStatus: "active", domainVerification: null });
  });

  it("validates puck_data as Puck data and bounds its size", async () => {
    const t = await makeTenant();
    const bad = [{ root: {} }, { root: {}, content: [{ props: {} }] }, { root: {}, content: "x" }];
    for (const puck_data of bad) {
      const res = await call(sitesRoute.POST, "POST", "/x", {
        key: t.key,
        body: { name: "X", domain: `x${Math.random().toString(36).slice(2)}.com`, configuration: { puck_data } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/puck_data/);
    }
    const huge = { root: {}, content: [{ type: "Text", props: { text: "x".repeat(600 * 1024) } }] };
    const res = await call(sitesRoute.POST, "POST", "/x", { key: t.key, body: { name: "X", domain: "huge.example.com", configuration: { puck_data: huge } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/512 KB/);
  });

  it("keeps a menu item's English and Spanish labels, and names a bad one in its 400", async () => {
    const t = await makeTenant();
    const menu = [{ label: "Comprar", label_en: "Buy", label_es: "Comprar", href: "/imoveis?type=sale" }];
    const ok = await call(sitesRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "X", domain: "menu-ok.example.com", configuration: { siteConfiguration: { menu } } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.configuration.siteConfiguration.menu).toEqual(menu);
    for (const item of [
      { label: "Comprar", label_en: "x".repeat(81), href: "/" },
      { label: "Comprar", label_fr: "Acheter", href: "/" },
    ]) {
      const res = await call(sitesRoute.POST, "POST", "/x", {
        key: t.key,
        body: { name: "X", domain: "menu-bad.example.com", configuration: { siteConfiguration: { menu: [item] } } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/menu/);
    }
    expect((await call(sitesRoute.GET, "GET", "/x", { key: t.key })).body.items.map((s: any) => s.domain)).toEqual(["menu-ok.example.com"]);
  });

  it("is for owners and admins: restricted keys and brokers get 403; another tenant's site is a 404", async () => {
    const t = await makeTenant();
    const site = await makeSite(t);
    const broker = await makeMember(t, "broker");
    const restricted = await makeMember(t, "admin", "restricted");
    for (const key of [broker.key, restricted.key]) {
      expect((await call(sitesRoute.GET, "GET", "/x", { key })).status).toBe(403);
      expect((await call(siteRoute.PATCH, "PATCH", "/x", { key, params: { siteId: site.id }, body: { name: "Mine" } })).status).toBe(403);
    }
    const other = await makeTenant();
    expect((await call(siteRoute.GET, "GET", "/x", { key: other.key, params: { siteId: site.id } })).status).toBe(404);
    expect((await call(siteRoute.DELETE, "DELETE", "/x", { key: other.key, params: { siteId: site.id } })).status).toBe(404);
    expect((await call(sitesRoute.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);
  });
});
