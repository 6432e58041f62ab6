/**
 * The pricing tool page `/c/{token}` (issue #16), through its route handler with real requests on
 * a real database: every step as HTML forms (no JavaScript needed), errors tied to their inputs,
 * the lead stored before the 303, the link's states as statuses (404, 410), hosts and locales of
 * the token's tenant only, rate limits as a friendly 429, and another tenant's data never shown.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as page from "../../../app/pricing-render/[locale]/[token]/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as pricingToolRoute from "../../../app/api/v1/settings/pricing-tool/route";
import { getDb } from "../../../db/client";
import { inboundLeads, shareLinks } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeVerifiedSite } from "../../helpers/sites";

let ip = 0;
const nextIp = () => `10.88.${Math.floor(++ip / 250)}.${ip % 250}`;

type Opts = { host?: string; locale?: string; method?: "GET" | "POST"; form?: Record<string, string>; ip?: string };
async function open(token: string, query: Record<string, string> = {}, o: Opts = {}) {
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = { host: o.host ?? "localhost:3000", [CLIENT_ADDRESS_HEADER]: o.ip ?? nextIp() };
  let body: string | undefined;
  if (o.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(o.form).toString();
  }
  const req = new Request(`http://localhost:3000/c/${token}${qs ? `?${qs}` : ""}`, { method: o.method ?? (o.form ? "POST" : "GET"), headers, body });
  const handler = req.method === "POST" ? page.POST : page.GET;
  const res = await handler(req, { params: Promise.resolve({ locale: o.locale ?? "pt-BR", token }) });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const PRIVATE = ["OwnerPricingMarkerQx", "owner-pricing-qx@private.example.com", "InternalPricingNotesQx", "NumPricingQx"];
const PROFILE = { city: "sao-paulo-sp", neighborhood: "Pinheiros", type: "apartment", area: "80", bedrooms: "2", bathrooms: "2", parking: "1" };

let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let siteA: string;
let siteB: string;

const pricingToken = async (t: TestTenant) => (await call(pricingToolRoute.GET, "GET", "/x", { key: t.key })).body.token as string;

beforeAll(async () => {
  a = await makeTenant("Imobiliária Página A");
  b = await makeTenant("Imobiliária Página B");
  const owner = { name: PRIVATE[0], email: PRIVATE[1] };
  for (const [i, [area, ppsqm]] of (
    [
      [70, 15000],
      [75, 15400],
      [80, 14800],
      [85, 14600],
      [90, 15600],
      [78, 15000],
      [82, 15200],
    ] as const
  ).entries()) {
    await makeListing(
      a,
      { price: (area * ppsqm).toFixed(2) },
      { totalArea: area.toFixed(2), bedrooms: 2, bathrooms: 2, parkingSpaces: 1, owner, internalNotes: PRIVATE[2] },
      { neighborhood: "Pinheiros", street: "Rua dos Pinheiros", number: PRIVATE[3], latitude: -23.5662 + i * 0.0004, longitude: -46.6912 },
    );
  }
  // Tenant B values another city only; its neighbourhood must never be offered on A's tool.
  for (const area of [70, 80, 90])
    await makeListing(
      b,
      { price: (area * 9000).toFixed(2) },
      { totalArea: area.toFixed(2) },
      { neighborhood: "Savassi", city: "Belo Horizonte", state: "MG", postalCode: "30140-000" },
    );
  await call(settingsRoute.PATCH, "PATCH", "/x", {
    key: a.key,
    body: { listingLanguages: ["pt-BR", "en"], branding: { name: "Casa Página A", logo: null, primaryColor: "#ffd400" } },
  });
  tokenA = await pricingToken(a);
  tokenB = await pricingToken(b);
  siteA = (await makeVerifiedSite(a, "pricing-a.example.com", { published: true })).domain;
  siteB = (await makeVerifiedSite(b, "pricing-b.example.com", { published: true })).domain;
});

afterAll(() => resetConfigForTests());

/** Whether the page has an `<input>` with all these attributes (names compared case-insensitively, as HTML does; order free). */
function hasInput(html: string, attrs: Record<string, string>): boolean {
  return [...html.matchAll(/<input\b([^>]*)>/g)].some(([, a]) => {
    const found = Object.fromEntries([...a.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, k, v]) => [k.toLowerCase(), v ?? ""]));
    return Object.entries(attrs).every(([k, v]) => found[k] === v);
  });
}

describe("the steps, without JavaScript", () => {
  it("starts with the tool's cities in a fieldset, branded, in Portuguese, with nothing private", async () => {
    const r = await open(tokenA);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("private, no-store");
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
    expect(r.headers.get("content-security-policy")).toContain("script-src 'self'; connect-src 'self'");
    expect(r.html).toMatch(/^<!doctype html><html lang="pt-BR">/);
    expect(r.html).toContain("Quanto vale o seu imóvel?");
    expect(r.html).toContain("Casa Página A");
    expect(r.html).toContain("<legend>Em qual cidade fica o imóvel?</legend>");
    expect(r.html).toContain('value="sao-paulo-sp"');
    expect(r.html).not.toContain("belo-horizonte");
    // A pale brand colour: dark text on it, and a darkened accent for links on white.
    expect(r.html).toContain("--brand:#ffd400;--on-brand:#111111;--brand-ink:#");
    expect(r.html).toContain('aria-current="step"');
    for (const p of PRIVATE) expect(r.html).not.toContain(p);
  });

  it("city missing: the city step again with an error tied to the fieldset (400)", async () => {
    const r = await open(tokenA, { step: "neighborhood" });
    expect(r.status).toBe(400);
    expect(r.html).toContain('<fieldset id="f-city" aria-invalid="true" aria-describedby="f-city-err">');
    expect(r.html).toContain('<p class="err" id="f-city-err">Escolha uma cidade.</p>');
    expect(r.html).toContain('role="alert"');
  });

  it("neighbourhood: an input with a server-filled datalist and the autocomplete endpoint for the script", async () => {
    const r = await open(tokenA, { step: "neighborhood", city: "sao-paulo-sp" });
    expect(r.status).toBe(200);
    expect(r.html).toContain('<label for="f-neighborhood">Bairro em São Paulo</label>');
    expect(r.html).toContain('list="nb-list"');
    expect(r.html).toContain('<option value="Pinheiros"></option>');
    expect(r.html).not.toContain("Savassi");
    expect(r.html).toContain(`data-suggest="/api/sites/share/${tokenA}/neighborhoods?city=sao-paulo-sp"`);
    expect(r.html).toMatch(/<script src="\/pricing-tool.js" defer(="")?><\/script>/);
  });

  it("a typo offers 'did you mean' links; the exact name (any case or accent) goes on with its canonical spelling", async () => {
    const typo = await open(tokenA, { step: "profile", city: "sao-paulo-sp", neighborhood: "pinheros" });
    expect(typo.status).toBe(200);
    expect(typo.html).toContain("Não encontramos “pinheros” em São Paulo. Você quis dizer:");
    expect(typo.html).toContain(`href="/c/${tokenA}?city=sao-paulo-sp&amp;neighborhood=Pinheiros&amp;step=profile"`);
    expect(typo.html).toContain("nbok=1");
    const ok = await open(tokenA, { step: "profile", city: "sao-paulo-sp", neighborhood: "PINHEIROS" });
    expect(ok.html).toContain("Conte-nos sobre o imóvel");
    expect(hasInput(ok.html, { type: "hidden", name: "neighborhood", value: "Pinheiros" })).toBe(true);
  });

  it("profile errors name each field (area, counts) and keep the answers", async () => {
    const r = await open(tokenA, { ...PROFILE, area: "", bedrooms: "2.5", step: "estimate" });
    expect(r.status).toBe(400);
    expect(
      hasInput(r.html, {
        id: "f-totalArea",
        name: "area",
        type: "text",
        inputmode: "decimal",
        required: "",
        maxlength: "12",
        value: "",
        "aria-invalid": "true",
        "aria-describedby": "f-totalArea-hint f-totalArea-err",
      }),
    ).toBe(true);
    expect(r.html).toContain('<p class="err" id="f-bedrooms-err">');
    expect(r.html).toContain('<a href="#f-totalArea">Digite a área total em m².</a>');
    expect(hasInput(r.html, { type: "radio", name: "type", value: "apartment", checked: "" })).toBe(true);
  });

  it("the estimate: value, range and confidence in plain words, anonymised comparables, a contact button carrying the answers", async () => {
    const r = await open(tokenA, { ...PROFILE, step: "estimate" });
    expect(r.status).toBe(200);
    expect(r.html).toContain('aria-live="polite"');
    expect(r.html).toMatch(/<p class="value">R\$\s1\.\d{3}\.\d{3}<\/p>/);
    expect(r.html).toMatch(/Provavelmente entre R\$\s[\d.]+ e R\$\s[\d.]+\./);
    expect(r.html).toMatch(/Confiança (alta|média|baixa)/);
    expect(r.html).toContain("Os imóveis parecidos que comparamos (7)");
    expect(r.html).toMatch(/<input type="hidden" name="ev" value="\d+"\/?>/);
    expect(hasInput(r.html, { type: "hidden", name: "step", value: "contact" })).toBe(true);
    for (const p of PRIVATE) expect(r.html).not.toContain(p);
  });

  it("English where the tenant enabled it; Spanish is a 404 because it did not", async () => {
    const en = await open(tokenA, { ...PROFILE, step: "estimate" }, { locale: "en" });
    expect(en.status).toBe(200);
    expect(en.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(en.html).toContain("Estimated value");
    expect(en.html).toContain(`action="/en/c/${tokenA}"`);
    expect((await open(tokenA, {}, { locale: "es" })).status).toBe(404);
  });
});

describe("the contact step", () => {
  const answers = { ...PROFILE, ev: "1200000", el: "1100000", eh: "1300000" };

  it("refuses an incomplete form with every error tied to its input (400) and stores nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, a.tenantId))).length;
    const r = await open(tokenA, {}, { form: { ...answers, name: "", email: "not-an-email", phone: "12", intent: "", consent: "" } });
    expect(r.status).toBe(400);
    for (const k of ["name", "email", "phone", "intent", "consent"]) expect(r.html).toContain(`id="f-${k}-err"`);
    expect(r.html).toContain('value="not-an-email"');
    expect(r.html).toMatch(/<div(?=[^>]* id="errors")(?=[^>]* autofocus)[^>]*>/);
    expect((await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, a.tenantId))).length).toBe(before);
  });

  it("stores the lead on the tenant's pricing channel before the 303 to the thank-you step", async () => {
    const r = await open(
      tokenA,
      {},
      {
        form: {
          ...answers,
          name: "Maria Proprietária",
          email: "maria@example.com",
          phone: "(11) 91234-5678",
          intent: "sell",
          consent: "yes",
          street: "Rua A",
          number: "10",
          complement: "",
          postalCode: "05422-000",
        },
      },
    );
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/c/${tokenA}?step=sent`);
    const db = await getDb();
    const rows = await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, a.tenantId));
    const lead = rows.map((x) => x.lead as any).find((l) => l.contactName === "Maria Proprietária");
    expect(lead).toBeTruthy();
    expect(lead.contactPhone).toBe("+5511912345678");
    expect(lead.pricing).toEqual({ intent: "sell", estimate: { value: 1200000, low: 1100000, high: 1300000 }, captureProperty: false });
    expect(lead.message).toContain("quer vender");
    // Nothing reached the other tenant.
    expect((await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, b.tenantId))).length).toBe(0);
    const sent = await open(tokenA, { step: "sent" });
    expect(sent.html).toContain("Casa Página A recebeu seus dados");
    expect(sent.html).not.toContain("Maria");
  });

  it("a NUL in a contact field is cleaned and the lead stored, not a 503 'busy' page", async () => {
    const r = await open(
      tokenA,
      {},
      {
        form: {
          ...answers,
          name: "Nul\u0000 Nome",
          email: "nul@example.com",
          phone: "(11) 91234-5679",
          intent: "sell",
          consent: "yes",
          street: "R\u0000",
          complement: "\u0000",
        },
      },
    );
    expect(r.status).toBe(303);
    const rows = await (await getDb()).select().from(inboundLeads).where(eq(inboundLeads.tenantId, a.tenantId));
    expect(rows.map((x) => (x.lead as any).contactName)).toContain("Nul Nome");
  });

  it("answers lost on the way: back to the step that needs them (303), nothing stored", async () => {
    const r = await open(tokenA, {}, { form: { city: "sao-paulo-sp", name: "X", email: "x@example.com", intent: "value", consent: "yes" } });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/c/${tokenA}?city=sao-paulo-sp&step=neighborhood`);
  });
});

describe("link states, hosts and limits", () => {
  it("unknown token 404, a listing's token 404, an expired link 410 with the tenant's branding only", async () => {
    const unknown = await open("A".repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain("Link não encontrado");
    const listing = await makeListing(a);
    const link = await makeShareLink(a, { entityType: "listing", entityId: listing.id });
    expect((await open(link.token)).status).toBe(404);
    const db = await getDb();
    const c = await makeTenant("Imobiliária Expirada C");
    const expiredToken = await pricingToken(c);
    await db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(and(eq(shareLinks.token, expiredToken), eq(shareLinks.tenantId, c.tenantId)));
    const gone = await open(expiredToken);
    expect(gone.status).toBe(410);
    expect(gone.html).toContain("Este link expirou");
    expect(gone.html).toContain("Imobiliária Expirada C");
    expect(gone.html).not.toContain("<form");
  });

  it("answers on the service host, its share domain and its own site; 404 on another tenant's site or host", async () => {
    expect((await open(tokenA, {}, { host: `${a.slug}.share.localhost:3000` })).status).toBe(200);
    expect((await open(tokenA, {}, { host: siteA })).status).toBe(200);
    expect((await open(tokenA, {}, { host: siteB })).status).toBe(404);
    expect((await open(tokenA, {}, { host: `${b.slug}.share.localhost:3000` })).status).toBe(404);
    expect((await open(tokenA, {}, { host: "unknown.example.net" })).status).toBe(404);
    expect((await open(tokenB, {}, { host: siteB })).status).toBe(200);
  });

  it("too many estimates from one address: a friendly 429 with Retry-After, never a 500", async () => {
    {
      const addr = nextIp();
      let last = { status: 0, html: "", headers: new Headers() };
      for (let i = 0; i < 31; i++) last = await open(tokenA, { ...PROFILE, step: "estimate" }, { ip: addr });
      expect(last.status).toBe(429);
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(last.html).toMatch(/Muitas tentativas em pouco tempo\. Aguarde \d+ segundos/);
    }
  });
});
