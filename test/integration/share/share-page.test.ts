import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as pageRoute from "../../../app/share-render/[locale]/p/[token]/route";
import * as memberRoute from "../../../app/share-render/[locale]/p/[token]/l/[listingId]/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as shortlistsRoute from "../../../app/api/v1/crm/shortlists/route";
import * as itinerariesRoute from "../../../app/api/v1/crm/visit-itineraries/route";
import { getDb } from "../../../db/client";
import { shareLinks } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { settleAccesses } from "../../../lib/share/record-access";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeSite } from "../../helpers/sites";

let ip = 0;
type Opts = { host?: string; locale?: string; cookie?: string; form?: Record<string, string>; listingId?: string; query?: string; head?: boolean };

/** The share page as the proxy hands it over: `/share-render/{locale}/p/{token}` with the recipient's Host. */
async function page(token: string, o: Opts = {}) {
  const locale = o.locale ?? "pt-BR";
  const headers = new Headers({ host: o.host ?? "localhost:3000", [CLIENT_ADDRESS_HEADER]: `10.16.${Math.floor(++ip / 250)}.${ip % 250}` });
  if (o.cookie) headers.set("cookie", o.cookie);
  let body: string | undefined;
  if (o.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(o.form).toString();
  }
  const path = `/share-render/${locale}/p/${token}${o.listingId ? `/l/${o.listingId}` : ""}${o.query ?? ""}`;
  const req = new Request(`http://${o.host ?? "localhost:3000"}${path}`, { method: o.form ? "POST" : o.head ? "HEAD" : "GET", headers, body });
  const res = o.listingId
    ? await (o.form ? memberRoute.POST : memberRoute.GET)(req, { params: Promise.resolve({ locale, token, listingId: o.listingId }) })
    : await (o.form ? pageRoute.POST : pageRoute.GET)(req, { params: Promise.resolve({ locale, token }) });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const setSharing = async (t: TestTenant, sharingConfig: unknown) => {
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const setSettings = async (t: TestTenant, body: unknown) => {
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** Text of the page without tags, for "does not say" checks that markup could hide. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe("share page /p/{token}", () => {
  let t: TestTenant;
  let other: TestTenant;
  let a: { id: string; code: string };
  let b: { id: string; code: string };
  beforeAll(async () => {
    t = await makeTenant("Imobiliária Página");
    other = await makeTenant("Outra Imobiliária");
    const broker = await makeMember(t, "broker", "broad", { phone: "+5511955554444" });
    a = await makeListing(
      t,
      { description: "Sala ampla com varanda.\n\nPrédio com piscina." },
      { assignedToId: broker.userId, media: [{ url: "https://img.example.com/a.jpg", isPrimary: true, alt: "Sala" }] },
    );
    b = await makeListing(t, { price: "1500000.00" }, {}, { latitude: -23.56, longitude: -46.69 });
  });

  it("a listing: 200, server-rendered HTML with the facts, the broker's WhatsApp, OG tags, only the map's script, no e-mail, under 60 KB", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    const res = await page(link.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const h = res.html;
    expect(h).toContain("Apartamento com varanda");
    expect(h).toMatch(/R\$\s980\.000/);
    expect(h).toContain("Vila Madalena");
    expect(h).toContain("Prédio com piscina.");
    expect(h).toContain("https://wa.me/5511955554444?text=");
    expect(h).toContain(`<meta property="og:image" content="http://localhost:3000/p/${link.token}/og?v=`);
    expect(h).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(h).toContain('<meta name="robots" content="noindex,nofollow"');
    // One script only: the map's, of our own origin, deferred (it draws the map when it nears the screen).
    expect(h.match(/<script[^>]*>/gi)).toEqual(['<script src="/listing-map.js" defer="">']);
    expect(h).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/); // no e-mail of anyone
    expect(Buffer.byteLength(h)).toBeLessThan(60 * 1024);
    // The default rules: neighbourhood-level address, approximate point, simulator on a sale listing.
    expect(h).not.toContain("Rua Harmonia");
    expect(h).toContain("Localização aproximada");
    expect(h).toContain("Simule o financiamento");
    await settleAccesses();
    const [row] = await (await getDb()).select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(row.viewCount).toBe(1);
    // A HEAD (link checkers; Next runs GET for it) answers the same status and counts nothing.
    expect((await page(link.token, { head: true })).status).toBe(200);
    await settleAccesses();
    const [after] = await (await getDb()).select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(after.viewCount).toBe(1);
  });

  it("states: unknown 404, deactivated 404, expired 410 with the tenant's branding only", async () => {
    expect((await page("x".repeat(32))).status).toBe(404);
    expect((await page("short")).status).toBe(404);
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    const db = await getDb();
    await db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, link.id));
    const gone = await page(link.token);
    expect(gone.status).toBe(410);
    expect(gone.html).toContain("Este link expirou");
    expect(gone.html).toContain("Imobiliária Página");
    expect(gone.html).not.toContain("Apartamento com varanda");
    expect(gone.html).not.toContain("Vila Madalena");
    await db.update(shareLinks).set({ expiresAt: null, active: false }).where(eq(shareLinks.id, link.id));
    const off = await page(link.token);
    expect(off.status).toBe(404);
    expect(off.html).not.toContain("Imobiliária Página");
  });

  it("a protected link: 401 form, wrong password 403, right one 303 with a grant cookie that opens the page (no JavaScript)", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id, password: "segredo1" });
    const first = await page(link.token);
    expect(first.status).toBe(401);
    expect(first.html).toMatch(new RegExp(`<form(?=[^>]* method="post")(?=[^>]* action="/p/${link.token}")[^>]*>`));
    expect(first.html).toMatch(/<input(?=[^>]* name="password")(?=[^>]* type="password")[^>]*>/);
    expect(first.html).not.toContain("Apartamento com varanda");
    expect(first.html).not.toContain("980.000");
    const wrong = await page(link.token, { form: { password: "errada" } });
    expect(wrong.status).toBe(403);
    expect(wrong.html).toContain("Senha incorreta");
    expect(wrong.html).not.toContain("Apartamento com varanda");
    const right = await page(link.token, { form: { password: "segredo1" } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/p/${link.token}`);
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^share_${link.token}=\\d+\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax$`));
    const opened = await page(link.token, { cookie: cookie.split(";")[0] });
    expect(opened.status).toBe(200);
    expect(opened.html).toContain("Apartamento com varanda");
    // A forged or foreign grant opens nothing.
    const forged = await page(link.token, { cookie: `share_${link.token}=9999999999.${"A".repeat(43)}` });
    expect(forged.status).toBe(401);
    const another = await makeShareLink(t, { entityType: "listing", entityId: b.id, password: "segredo1" });
    expect((await page(another.token, { cookie: `share_${another.token}=${cookie.split(";")[0].split("=")[1]}` })).status).toBe(401);
  });

  it("too many wrong passwords: 429 with how long to wait; a link hidden by the stage rules is a 404 page", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: b.id, password: "certa123" });
    for (let i = 0; i < 5; i++) expect((await page(link.token, { form: { password: `errada${i}` } })).status).toBe(403);
    const locked = await page(link.token, { form: { password: "certa123" } });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(locked.html).toMatch(/Muitas senhas incorretas\. Tente de novo em 1[45] minutos\./);
    expect(locked.html).not.toContain("Apartamento com varanda");
    const open = await makeShareLink(t, { entityType: "listing", entityId: b.id });
    expect((await page(open.token)).status).toBe(200);
    await setSharing(t, { restrictions: { hideSharesForStages: ["active"] } });
    const hidden = await page(open.token);
    expect(hidden.status).toBe(404);
    expect(hidden.html).toContain("Link não encontrado");
    expect(hidden.html).not.toContain("Imobiliária Página");
    await setSharing(t, {});
  });

  it("hosts: the service, the tenant's share subdomain and its sites; another tenant's subdomain or site is a 404", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    const site = await makeSite(t);
    const otherSite = await makeSite(other);
    expect((await page(link.token, { host: "127.0.0.1:3000" })).status).toBe(200);
    expect((await page(link.token, { host: `${t.slug}.share.localhost:3000` })).status).toBe(200);
    expect((await page(link.token, { host: site.domain })).status).toBe(200);
    expect((await page(link.token, { host: `${other.slug}.share.localhost:3000` })).status).toBe(404);
    expect((await page(link.token, { host: otherSite.domain })).status).toBe(404);
    expect((await page(link.token, { host: "unknown.example.org" })).status).toBe(404);
  });

  it("showFinancialSimulator false hides the simulator on the share domain, not on the tenant's own site", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    const site = await makeSite(t);
    await setSharing(t, { showFinancialSimulator: false });
    expect((await page(link.token, { host: `${t.slug}.share.localhost:3000` })).html).not.toContain("Simule o financiamento");
    expect((await page(link.token, { host: site.domain })).html).toContain("Simule o financiamento");
    await setSharing(t, {});
  });

  it("locales: /en and /es only when the tenant enables them", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    expect((await page(link.token, { locale: "en" })).status).toBe(404);
    await setSettings(t, { listingLanguages: ["pt-BR", "en"] });
    const en = await page(link.token, { locale: "en" });
    expect(en.status).toBe(200);
    expect(en.html).toContain('<html lang="en">');
    expect(en.html).toContain("Mortgage simulator");
    // HTML attribute names are case-insensitive (React writes `hrefLang`).
    expect(en.html).toMatch(new RegExp(`href="/p/${link.token}" hreflang="pt-BR"`, "i"));
    expect((await page(link.token, { locale: "es" })).status).toBe(404);
    await setSettings(t, { listingLanguages: ["pt-BR"] });
  });

  it("fieldVisibility as the recipient sees it: address levels, price, financials, code, coordinates", async () => {
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    await setSharing(t, { fieldVisibility: { address: "full", coordinates: "exact" } });
    let h = (await page(link.token)).html;
    expect(h).toContain("Rua Harmonia, 123");
    expect(h).toContain("05435-000");
    expect(h).toContain("Localização do imóvel.");
    await setSharing(t, { fieldVisibility: { address: "city_only", coordinates: "hidden", financials: "hidden", price: "hidden", listingCode: "hidden" } });
    h = (await page(link.token)).html;
    const txt = text(h);
    expect(txt).toContain("São Paulo - SP");
    expect(txt).not.toContain("Vila Madalena");
    expect(txt).not.toContain("Rua Harmonia");
    expect(txt).not.toContain("Localização");
    expect(txt).not.toContain("Condomínio");
    expect(txt).not.toContain("IPTU");
    expect(txt).not.toContain("980.000");
    expect(txt).toContain("Consulte");
    expect(txt).not.toContain(a.code);
    // No price: no simulator either.
    expect(txt).not.toContain("Simule o financiamento");
    await setSharing(t, {});
  });

  it("a shortlist: cards that open each listing within the shortlist, with the way back and on", async () => {
    const sl = await call(shortlistsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Família Souza", description: "Zona oeste", listingIds: [b.id, a.id] },
    });
    const link = await makeShareLink(t, { entityType: "shortlist", entityId: sl.body.id });
    const res = await page(link.token);
    expect(res.status).toBe(200);
    expect(res.html).toContain("Família Souza");
    expect(res.html).toContain(`href="/p/${link.token}/l/${b.id}"`);
    expect(res.html).toContain(`href="/p/${link.token}/l/${a.id}"`);
    const inner = await page(link.token, { listingId: a.id });
    expect(inner.status).toBe(200);
    expect(inner.html).toContain("Voltar para Família Souza");
    expect(inner.html).toContain("2 de 2");
    expect(inner.html).toContain(`href="/p/${link.token}/l/${b.id}" rel="prev"`);
    // A listing that is not in the shortlist is not reachable through it.
    const stranger = await makeListing(t);
    expect((await page(link.token, { listingId: stranger.id })).status).toBe(404);
  });

  it("a seller report: the figures and a weekly chart with a table for screen readers", async () => {
    const link = await makeShareLink(t, { entityType: "seller_report", entityId: a.id });
    const res = await page(link.token);
    expect(res.status).toBe(200);
    expect(res.html).toContain("Relatório para o proprietário");
    expect(res.html).toContain("Visualizações e interessados por semana");
    expect((res.html.match(/<tr><th scope="row">/g) ?? []).length).toBeGreaterThanOrEqual(12);
  });

  it("a visit itinerary: ordered stops with times, meeting point, route map and a maps link", async () => {
    const it = await call(itinerariesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        name: "Sábado",
        scheduledDate: "2030-05-04",
        meetingPoint: { name: "Metrô Fradique", address: "Rua dos Pinheiros, 1400", latitude: -23.5662, longitude: -46.6843 },
        stops: [
          { listingId: a.id, time: "10:30", notes: "Portaria" },
          { listingId: b.id, time: "09:30" },
        ],
      },
    });
    expect(it.status, JSON.stringify(it.body)).toBe(201);
    const link = await makeShareLink(t, { entityType: "visit_itinerary", entityId: it.body.id });
    const res = await page(link.token);
    expect(res.status).toBe(200);
    const h = res.html;
    expect(h).toContain("Metrô Fradique");
    expect(h).toContain("às 09:30");
    expect(h.indexOf("às 09:30")).toBeLessThan(h.indexOf("às 10:30"));
    expect(h).toContain("https://www.google.com/maps/dir/?api=1&amp;origin=-23.56620%2C-46.68430");
    expect(h).toContain("Abrir o roteiro no mapa");
  });

  it("escapes what listings say", async () => {
    const evil = await makeListing(t, { title: '<script>alert("x")</script> Casa' });
    const link = await makeShareLink(t, { entityType: "listing", entityId: evil.id });
    const res = await page(link.token);
    expect(res.html).not.toContain("<script>");
    expect(res.html).toContain("&lt;script&gt;");
  });
});
