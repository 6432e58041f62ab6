import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { api as apiAs } from "./api";
import { E2E_OPERATOR_TOKEN } from "./constants";

/**
 * Share pages `/p/{token}` (issue #16) on the production build, as a recipient opens them: every
 * kind and every state with its status, the password form without JavaScript, the
 * `fieldVisibility` variants, axe, the 60 KB budget, and no private field or e-mail in any HTML.
 * The owner's data and the brokers' e-mails carry marker strings no page may contain.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const ORIGIN = `http://localhost:${PORT}`;

const MARK = {
  ownerName: "ShareOwnerMarkerQx",
  ownerEmail: "share-owner-qx@private.example.com",
  ownerPhone: "+5511977775678",
  ownerCpf: "529.982.247-25",
  internalNotes: "ShareNotesMarkerQx",
  streetNumber: "NumShareQx",
  brokerEmail: "share-broker-qx@private.example.com",
  ownerMemberEmail: "share-boss-qx@private.example.com",
};
const FORBIDDEN = [
  MARK.ownerName,
  MARK.ownerEmail,
  "977775678",
  "97777-5678",
  "52998224725",
  MARK.ownerCpf,
  MARK.internalNotes,
  "share-owner-qx",
  "share-broker-qx",
  "share-boss-qx",
];
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+/;

type Links = Record<"listing" | "protected" | "expired" | "shortlist" | "report" | "itinerary" | "rental", string>;
let key = "";
let slug = "";
let links: Links;
let saleId = "";

/** This file's tenant key, through the shared `/api/v1` helper. */
const api = (request: APIRequestContext, method: "post" | "patch" | "get", path: string, data?: unknown) => apiAs(request, key, method, path, data);

const noJs = async (browser: Browser) => (await browser.newContext({ javaScriptEnabled: false })).newPage();

test.beforeAll(async ({ request }) => {
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Imobiliária Links E2E", slug: `links-e2e-${Date.now().toString(36)}`, owner: { name: "Dona", email: MARK.ownerMemberEmail } },
  });
  expect(tenant.status()).toBe(201);
  const body = await tenant.json();
  key = body.apiKey;
  slug = body.slug;
  expect(slug).toMatch(/^links-e2e-/);
  await api(request, "patch", "/api/v1/settings", {
    listingLanguages: ["pt-BR", "en"],
    branding: { name: "Imobiliária Links E2E", logo: "/demo/logo.svg", primaryColor: "#ffd400" },
  });
  const broker = await api(request, "post", "/api/v1/settings/members", {
    name: "Carla Corretora",
    email: MARK.brokerEmail,
    phone: "+5511955551234",
    creci: "654321-F/SP",
    role: "broker",
  });
  const owner = { name: MARK.ownerName, email: MARK.ownerEmail, phone: MARK.ownerPhone, cpf: MARK.ownerCpf };
  const make = async (over: Record<string, unknown>, listing: Record<string, unknown>, lat: number) =>
    api(request, "post", "/api/v1/real-estate/properties", {
      property: {
        type: "apartment",
        bedrooms: 3,
        bathrooms: 2,
        suites: 1,
        parkingSpaces: 2,
        totalArea: "98.50",
        condominiumFee: "850.00",
        propertyTax: "2400.00",
        assignedToId: broker.id,
        owner,
        internalNotes: MARK.internalNotes,
        media: [
          { url: "/demo/living-room-01.svg", isPrimary: true, alt: "Sala de estar" },
          { url: "/demo/kitchen-01.svg", alt: "Cozinha" },
          { url: "/demo/bedroom-01.svg", alt: "Quarto" },
        ],
        ...over,
      },
      location: {
        street: "Rua dos Pinheiros",
        number: MARK.streetNumber,
        neighborhood: "Pinheiros",
        city: "São Paulo",
        state: "SP",
        postalCode: "05422-001",
        latitude: lat,
        longitude: -46.68345,
      },
      listings: [
        {
          title: "Apartamento de 3 quartos em Pinheiros",
          description: "Sala ampla com varanda.\n\nPerto do metrô.",
          type: "sale",
          price: "1250000.00",
          stage: "active",
          visibility: "public",
          ...listing,
        },
      ],
    });
  const sale = await make(
    {},
    { translations: { en: { title: "Three-bedroom apartment in Pinheiros", description: "Large living room with a balcony." } } },
    -23.56712,
  );
  const second = await make({ type: "house" }, { title: "Casa com quintal em Pinheiros", price: "1800000.00" }, -23.5702);
  const rental = await make({}, { title: "Apartamento para alugar", type: "rental", price: "6500.00" }, -23.5641);
  saleId = sale.listings[0].id;
  const ids = [saleId, second.listings[0].id, rental.listings[0].id];
  const link = async (entityType: string, entityId: string, extra: Record<string, unknown> = {}) =>
    (await api(request, "post", "/api/v1/share-links", { entityType, entityId, ...extra })).token as string;
  const shortlist = await api(request, "post", "/api/v1/crm/shortlists", {
    name: "Seleção da família Lima",
    description: "Os três que combinamos.",
    listingIds: ids,
  });
  const itinerary = await api(request, "post", "/api/v1/crm/visit-itineraries", {
    name: "Visitas de sábado",
    scheduledDate: "2030-06-01",
    meetingPoint: { name: "Metrô Fradique Coutinho", address: "Rua dos Pinheiros, 1400", latitude: -23.5662, longitude: -46.6843 },
    stops: [
      { listingId: ids[0], time: "10:30", notes: "Portaria" },
      { listingId: ids[1], time: "09:30" },
    ],
  });
  links = {
    listing: await link("listing", saleId),
    protected: await link("listing", saleId, { password: "segredo-e2e" }),
    expired: await link("listing", saleId, { expiresAt: new Date(Date.now() + 2500).toISOString() }),
    shortlist: await link("shortlist", shortlist.id),
    report: await link("seller_report", saleId),
    itinerary: await link("visit_itinerary", itinerary.id),
    rental: await link("listing", ids[2]),
  };
  await new Promise((r) => setTimeout(r, 2600));
});

function clean(html: string) {
  for (const f of FORBIDDEN) expect(html, `forbidden '${f}' in the HTML`).not.toContain(f);
  expect(html).not.toMatch(EMAIL);
}

test("every kind renders 200 without JavaScript, within 60 KB, with no private field or e-mail and no axe violation", async ({ page, request }) => {
  const cases: [keyof Links, string][] = [
    ["listing", "Apartamento de 3 quartos em Pinheiros"],
    ["shortlist", "Seleção da família Lima"],
    ["report", "Apartamento de 3 quartos em Pinheiros"],
    ["itinerary", "Visitas de sábado"],
    ["rental", "Apartamento para alugar"],
  ];
  for (const [kind, heading] of cases) {
    const res = await request.get(`/p/${links[kind]}`);
    expect(res.status(), kind).toBe(200);
    const html = await res.text();
    expect(Buffer.byteLength(html), `${kind} HTML size`).toBeLessThanOrEqual(60 * 1024);
    // No script but the listing map's own (deferred, our origin): the page is whole without JavaScript.
    expect(html.replaceAll('<script src="/listing-map.js" defer=""></script>', "")).not.toMatch(/<script/i);
    clean(html);
    await page.goto(`/p/${links[kind]}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(heading);
    const r = await new AxeBuilder({ page }).analyze();
    expect(
      r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${kind} axe`,
    ).toEqual([]);
  }
});

test("states: unknown 404, expired 410 and protected 401 pages carry the branding only, and pass axe", async ({ page }) => {
  for (const [token, status, text] of [
    ["x".repeat(32), 404, "Link não encontrado"],
    [links.expired, 410, "Este link expirou"],
    [links.protected, 401, "Este link é protegido"],
  ] as const) {
    const res = await page.goto(`/p/${token}`);
    expect(res!.status()).toBe(status);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text);
    const html = await res!.text();
    expect(html).not.toContain("Pinheiros");
    expect(html).not.toContain("1.250.000");
    clean(html);
    if (status !== 404) expect(html).toContain("Imobiliária Links E2E");
    const r = await new AxeBuilder({ page }).analyze();
    expect(
      r.violations.map((v) => v.id),
      `${status} axe`,
    ).toEqual([]);
  }
});

test("the password form works without JavaScript: wrong one 403 says so, right one opens the page and keeps it open", async ({ browser }) => {
  const page = await noJs(browser);
  expect((await page.goto(`/p/${links.protected}`))!.status()).toBe(401);
  await page.getByLabel("Senha").fill("errada");
  const [wrong] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: "Abrir" }).click()]);
  expect(wrong.status()).toBe(403);
  await expect(page.getByRole("alert")).toHaveText("Senha incorreta. Confira e tente de novo.");
  await page.getByLabel("Senha").fill("segredo-e2e");
  await page.getByRole("button", { name: "Abrir" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento de 3 quartos em Pinheiros");
  const again = await page.goto(`/p/${links.protected}`);
  expect(again!.status()).toBe(200);
  clean(await again!.text());
  await page.context().close();
});

test("fieldVisibility variants as the recipient sees them", async ({ request }) => {
  const get = async () => (await (await request.get(`/p/${links.listing}`)).text()).replace(/<[^>]+>/g, " ");
  await api(request, "patch", "/api/v1/settings", {
    sharingConfig: { fieldVisibility: { address: "full", coordinates: "exact", financials: "visible", price: "inherit", listingCode: "visible" } },
  });
  let text = await get();
  expect(text).toContain(`Rua dos Pinheiros, ${MARK.streetNumber}`);
  expect(text).toContain("05422-001");
  expect(text).toContain("Localização do imóvel.");
  expect(text).toContain("Condomínio");
  expect(text).toMatch(/R\$\s1\.250\.000/);
  await api(request, "patch", "/api/v1/settings", {
    sharingConfig: {
      fieldVisibility: { address: "city_only", coordinates: "hidden", financials: "hidden", price: "hidden", listingCode: "hidden" },
      showFinancialSimulator: false,
    },
  });
  text = await get();
  expect(text).toContain("São Paulo - SP");
  for (const gone of ["Rua dos Pinheiros", "05422-001", "Localização", "Condomínio", "IPTU", "1.250.000", "Simule o financiamento"])
    expect(text, gone).not.toContain(gone);
  expect(text).toContain("Consulte");
  await api(request, "patch", "/api/v1/settings", { sharingConfig: { fieldVisibility: { address: "neighborhood_only", coordinates: "approximate" } } });
  text = await get();
  expect(text).toContain("Pinheiros");
  expect(text).not.toContain("Rua dos Pinheiros");
  expect(text).toContain("Localização aproximada");
  expect(text).toContain("Simule o financiamento");
});

test("English where the tenant enabled it, 404 in Spanish; the share subdomain of the tenant serves it, another one does not", async ({ request }) => {
  const en = await request.get(`/en/p/${links.listing}`);
  expect(en.status()).toBe(200);
  const html = await en.text();
  expect(html).toContain('<html lang="en">');
  expect(html).toContain("Three-bedroom apartment in Pinheiros");
  expect((await request.get(`/es/p/${links.listing}`)).status()).toBe(404);
  // Node does not resolve `*.localhost` as browsers do: the Host header names the share subdomain.
  expect((await request.get(`/p/${links.listing}`, { headers: { host: `${slug}.share.localhost:${PORT}` } })).status()).toBe(200);
  expect((await request.get(`/p/${links.listing}`, { headers: { host: `someone-else.localhost:${PORT}` } })).status()).toBe(404);
});

test("shortlist cards open each listing within the shortlist; the itinerary links the route to the maps app; the broker's WhatsApp", async ({ page }) => {
  await page.goto(`/p/${links.shortlist}`);
  await page.getByRole("link", { name: /Casa com quintal em Pinheiros/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Casa com quintal em Pinheiros");
  await expect(page.getByRole("link", { name: /Voltar para Seleção da família Lima/ })).toBeVisible();
  await page.goto(`/p/${links.itinerary}`);
  const route = page.getByRole("link", { name: "Abrir o roteiro no mapa" });
  expect(await route.getAttribute("href")).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&origin=-23\.56620%2C-46\.68430/);
  const stops = await page.locator(".stops .card-title").allTextContents();
  expect(stops).toEqual(["Casa com quintal em Pinheiros", "Apartamento de 3 quartos em Pinheiros"]);
  // The listing's broker (its assigned member) answers on WhatsApp; the button is also in the thumb bar.
  await page.goto(`/p/${links.listing}`);
  const wa = page.getByRole("link", { name: "Conversar no WhatsApp" });
  expect(await wa.getAttribute("href")).toMatch(/^https:\/\/wa\.me\/5511955551234\?text=/);
  expect(await page.getByRole("complementary").getByRole("link").getAttribute("href")).toBe(await wa.getAttribute("href"));
});

test("link previews: OG tags, a 1200x630 PNG; a protected link's image is the same branding-only card as an expired link's", async ({ request }) => {
  const html = await (await request.get(`/p/${links.listing}`)).text();
  const image = html.match(/<meta property="og:image" content="([^"]+)"\/?>/)?.[1];
  expect(image).toMatch(new RegExp(`^${ORIGIN}/p/${links.listing}/og\\?v=`));
  expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
  const png = await request.get(image!);
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");
  const buf = await png.body();
  expect(buf.readUInt32BE(16)).toBe(1200);
  expect(buf.readUInt32BE(20)).toBe(630);
  const prot = await (await request.get(`/p/${links.protected}/og`)).body();
  const exp = await (await request.get(`/p/${links.expired}/og`)).body();
  expect(Buffer.compare(prot, exp)).toBe(0);
  expect(Buffer.compare(prot, buf)).not.toBe(0);
  const protHtml = await (await request.get(`/p/${links.protected}`)).text();
  expect(protHtml).toContain('<meta property="og:title" content="Imobiliária Links E2E"');
  expect(protHtml).not.toContain("Pinheiros");
});
