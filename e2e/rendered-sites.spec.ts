import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser } from "@playwright/test";
import { api } from "./api";
import { E2E_OPERATOR_TOKEN } from "./constants";

/**
 * Rendered tenant sites (issue #15) on the production build: reached by host name (Chromium
 * resolves `*.localhost` itself), three locales, readable without JavaScript, accessible (axe),
 * and no private field in any page: every forbidden field of spec 2 §2.2 and the broker's e-mail
 * carry marker strings that no HTML may contain.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** Run through nginx to two nodes (npm run test:e2e:cluster), not against a server of its own. */
const BEHIND_NGINX = Boolean(process.env.E2E_EXTERNAL);
const HOST = "sites-e2e.localhost";
const ORIGIN = `http://${HOST}:${PORT}`;
const MONO_HOST = "mono-e2e.localhost";

const MARK = {
  ownerName: "OwnerNameMarkerZq",
  ownerEmail: "owner-marker-zq@private.example.com",
  ownerPhone: "+5511977771234",
  ownerWhatsapp: "+5511966662345",
  ownerCpf: "529.982.247-25",
  internalNotes: "InternalNotesMarkerZq",
  streetNumber: "NumMarkZq",
  brokerEmail: "broker-marker-zq@private.example.com",
};
/** Every spelling a marker could take in HTML. */
const FORBIDDEN = [
  MARK.ownerName,
  MARK.ownerEmail,
  "977771234",
  "97777-1234",
  "966662345",
  "96666-2345",
  "52998224725",
  MARK.ownerCpf,
  MARK.internalNotes,
  MARK.streetNumber,
  MARK.brokerEmail,
  "owner-marker-zq",
  "broker-marker-zq",
];

type Setup = {
  key: string;
  salePropertyId: string;
  rentListingId: string;
  siteId: string;
  draftSiteId: string;
  saleCode: string;
  rentCode: string;
  salePath: string;
  rentPath: string;
};
let setup: Setup;

test.beforeAll(async ({ request }) => {
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Imobiliária Sites E2E", owner: { name: "Owner", email: "owner@sites-e2e.example.com" } },
  });
  expect(tenant.status()).toBe(201);
  const key = (await tenant.json()).apiKey as string;
  await api(request, key, "patch", "/api/v1/settings", { listingLanguages: ["pt-BR", "en", "es"], primaryMarketEnabled: false });
  const broker = await api(request, key, "post", "/api/v1/settings/members", {
    name: "Bruna Corretora",
    email: MARK.brokerEmail,
    phone: "+5511955554321",
    creci: "123456-F/SP",
    role: "broker",
  });
  await api(request, key, "post", "/api/v1/settings/marketing-channels", { name: "Site", kind: "website", queue: [broker.id] });
  const owner = { name: MARK.ownerName, email: MARK.ownerEmail, phone: MARK.ownerPhone, whatsapp: MARK.ownerWhatsapp, cpf: MARK.ownerCpf };
  const sale = await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: {
      type: "apartment",
      bedrooms: 3,
      bathrooms: 2,
      suites: 1,
      parkingSpaces: 2,
      totalArea: "98.50",
      privateArea: "90.00",
      condominiumFee: "850.00",
      propertyTax: "2400.00",
      assignedToId: broker.id,
      owner,
      internalNotes: MARK.internalNotes,
      media: [
        { url: "/demo/living-room-01.svg", isPrimary: true },
        { url: "/demo/kitchen-01.svg" },
        { url: "/demo/bedroom-01.svg" },
        { url: "/demo/bathroom-01.svg" },
      ],
    },
    location: {
      street: "Rua dos Pinheiros",
      number: MARK.streetNumber,
      neighborhood: "Pinheiros",
      city: "São Paulo",
      state: "SP",
      postalCode: "05422-001",
      latitude: -23.56712,
      longitude: -46.68345,
    },
    listings: [
      {
        title: "Apartamento de 3 quartos em Pinheiros",
        description: "Sala ampla com varanda.\n\nPerto do metrô.",
        type: "sale",
        price: "1250000.00",
        stage: "active",
        translations: {
          en: { title: "Three-bedroom apartment in Pinheiros", description: "Large living room with balcony." },
          es: { title: "Apartamento de 3 dormitorios en Pinheiros" },
        },
      },
    ],
  });
  const rent = await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: {
      type: "house",
      bedrooms: 2,
      bathrooms: 1,
      totalArea: "120.00",
      owner,
      internalNotes: MARK.internalNotes,
      media: [{ url: "/demo/house-facade-01.svg", isPrimary: true }],
    },
    location: { street: "Rua Cardeal Arcoverde", number: MARK.streetNumber, neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
    listings: [{ title: "Casa para alugar em Pinheiros", type: "rental", price: "6500.00", priceVisibility: "private", stage: "active" }],
  });
  const site = await api(request, key, "post", "/api/v1/sites", {
    name: "Sites E2E",
    domain: HOST,
    published: true,
    configuration: {
      puck_data: {
        root: { props: { title: "Sites E2E — imóveis em São Paulo" } },
        content: [
          { type: "Hero", props: { id: "hero", title: "Seu próximo lar em São Paulo", title_en: "Your next home in São Paulo", title_es: " " } },
          { type: "Carousel3000", props: { id: "unknown" } },
          { type: "FeaturedListings", props: { id: "featured", title: "Destaques" } },
          {
            type: "RichText",
            props: { id: "rich", content: "<p>Texto <strong>rico</strong><script>window.__pwned=1</script><img src=x onerror=alert(1)></p>" },
          },
        ],
      },
      siteConfiguration: {
        brand: { name: "Sites E2E", primaryColor: "#0f5132", logoUrl: null },
        menu: [
          { label: "Imóveis", label_en: "Homes", href: "/imoveis" },
          { label: "Ruim", href: "javascript:alert(1)" },
        ],
        footer: { phone: "+55 11 3000-0000", text: "Desde 2010", text_es: "Desde 2010 en São Paulo" },
      },
    },
  });
  const draft = await api(request, key, "post", "/api/v1/sites", { name: "Rascunho", domain: "draft-e2e.localhost", published: false });
  // A second tenant with Portuguese only.
  const t2 = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Mono", owner: { name: "O", email: "o@mono.example.com" } },
  });
  await api(request, (await t2.json()).apiKey, "post", "/api/v1/sites", { name: "Mono", domain: MONO_HOST, published: true });
  const saleListing = sale.listings[0];
  const rentListing = rent.listings[0];
  setup = {
    key,
    salePropertyId: sale.property.id,
    rentListingId: rentListing.id,
    siteId: site.id,
    draftSiteId: draft.id,
    saleCode: saleListing.listingCode,
    rentCode: rentListing.listingCode,
    salePath: `/imovel/${saleListing.listingCode}/apartamento-de-3-quartos-em-pinheiros`,
    rentPath: `/imovel/${rentListing.listingCode}/casa-para-alugar-em-pinheiros`,
  };
});

const noJs = async (browser: Browser) => (await browser.newContext({ javaScriptEnabled: false })).newPage();

test("the home page renders the site's Puck page by host; unknown blocks and rich-text scripts are left out", async ({ page }) => {
  const res = await page.goto(`${ORIGIN}/`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seu próximo lar em São Paulo");
  await expect(page).toHaveTitle("Sites E2E — imóveis em São Paulo");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("heading", { name: "Destaques" })).toBeVisible();
  await expect(page.getByText("Apartamento de 3 quartos em Pinheiros").first()).toBeVisible();
  await expect(page.locator(".rich strong")).toHaveText("rico");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("a[href^='javascript']").count()).toBe(0);
  expect(await page.content()).not.toContain("Carousel3000");
  // hreflang alternates and the language switcher
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", `${ORIGIN}/en`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${ORIGIN}/`);
  await page.getByRole("link", { name: "English" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/en`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  // The tenant's own words in the visitor's language where it wrote them (`title_en`, `label_en`), else Portuguese.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your next home in São Paulo");
  await expect(page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Homes" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Destaques" })).toBeVisible();
  await page.goto(`${ORIGIN}/es`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seu próximo lar em São Paulo"); // blank title_es
  await expect(page.locator(".site-footer")).toContainText("Desde 2010 en São Paulo");
  // No third-party script without a configured Meta Pixel.
  expect(await page.locator("script[src^='http']").count()).toBe(0);
});

test("an unknown host is a 404 page; the service's own host keeps its home page and the API answers on a site host", async ({ page }) => {
  const res = await page.goto(`http://nobody-e2e.localhost:${PORT}/`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Site não encontrado");
  const draft = await page.goto(`http://draft-e2e.localhost:${PORT}/`);
  expect(draft?.status()).toBe(404);
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ImobiCRM");
  const health = await page.goto(`${ORIGIN}/api/health`);
  expect(await health?.json()).toEqual({ status: "ok" });
});

test("an address no page matches is a server-rendered 404 in the site's language, with a main landmark, and passes axe", async ({ browser, page: withJs }) => {
  const page = await noJs(browser);
  for (const [path, lang, title, home] of [
    ["/en/en/imovel/X1/slug", "en", "Page not found", "/en"],
    ["/a/b/c/d", "pt-BR", "Página não encontrada", "/"],
  ] as const) {
    const res = await page.goto(`${ORIGIN}${path}`);
    expect(res?.status(), path).toBe(404);
    expect(await page.locator("html").getAttribute("lang")).toBe(lang);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page, path).toHaveTitle(title);
    expect(await page.getByRole("main").getByRole("link", { name: /./ }).last().getAttribute("href")).toBe(home);
    await withJs.goto(`${ORIGIN}${path}`);
    expect(
      (await new AxeBuilder({ page: withJs }).analyze()).violations.map((v) => v.id),
      path,
    ).toEqual([]);
  }
});

test("an unknown site, listing or language answers a 404 rendered on the server, readable without JavaScript", async ({ browser, page: withJs }) => {
  const page = await noJs(browser);
  // [address, html lang, heading, link home or null]
  const cases = [
    [`http://nobody-e2e.localhost:${PORT}/imoveis`, "pt-BR", "Site não encontrado", null],
    [`${ORIGIN}/imovel/NOPE123`, "pt-BR", "Página não encontrada", "/"],
    [`${ORIGIN}/en/imovel/NOPE123/some-slug`, "en", "Page not found", "/en"],
    // A place the site has no listings in, and a place in another spelling than its canonical one.
    [`${ORIGIN}/imoveis/sp/campinas`, "pt-BR", "Página não encontrada", "/"],
    [`${ORIGIN}/es/imoveis/SP`, "es", "Página no encontrada", "/es"],
    // Not valid percent-encoding: no such listing (it used to be a 500). Behind nginx
    // (test:e2e:cluster) nginx itself refuses such an address with its 400: no node sees it.
    ...(BEHIND_NGINX ? [] : ([[`${ORIGIN}/imovel/%E0%A4%A`, "pt-BR", "Página não encontrada", "/"]] as const)),
    // A language the tenant has not enabled: the site's own language.
    [`http://${MONO_HOST}:${PORT}/en/imovel/X1`, "pt-BR", "Página não encontrada", "/"],
  ] as const;
  for (const [url, lang, title, home] of cases) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
    expect(await page.locator("html").getAttribute("lang"), url).toBe(lang);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 }), url).toHaveText(title);
    await expect(page, url).toHaveTitle(title);
    if (home) {
      // Within the site's own frame: its header, and links to its catalogue and home.
      await expect(page.locator("header").first(), url).toBeVisible();
      expect(
        await page
          .getByRole("main")
          .getByRole("link")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href"))),
        url,
      ).toEqual([`${home === "/" ? "" : home}/imoveis`, home]);
    } else expect(await page.getByRole("main").getByRole("link").count(), url).toBe(0);
    await withJs.goto(url);
    expect(
      (await new AxeBuilder({ page: withJs }).analyze()).violations.map((v) => v.id),
      url,
    ).toEqual([]);
  }
  // A valid escape on the API still reaches its route (here: no key, 401).
  expect((await page.request.get(`http://localhost:${PORT}/api/v1/real-estate/listings/AP%201`)).status()).toBe(401);
  // Undecodable addresses are a 404 page too, and a JSON 400 on the API, not Next.js's bare 500.
  if (BEHIND_NGINX) return;
  for (const path of ["/imoveis/%E0%A4%A", "/blog/%E0%A4%A", "/%E0%A4%A", "/c/%E0%A4%A", "/p/abc%ZZ", "/en/p/abc%ZZ/l/x"])
    expect((await page.goto(`${ORIGIN}${path}`))?.status(), path).toBe(404);
  for (const path of ["/api/v1/real-estate/listings/%E0%A4%A", "/api/sites/%E0%A4%A/config"]) {
    const res = await page.request.get(`http://localhost:${PORT}${path}`);
    expect(res.status(), path).toBe(400);
    expect((await res.json()).error.code, path).toBe("invalid_request");
  }
});

test("the proxy's own headers count for nothing when a client sends them", async ({ browser }) => {
  const forged = await browser.newContext({
    extraHTTPHeaders: {
      "x-site-key": "d~sites-e2e.localhost",
      "x-next-intl-locale": "en",
      "x-site-missing": "listing",
      "x-site-lookup": "00000000-0000-0000-0000-000000000000",
      "x-site-proxy": "guess",
    },
  });
  const page = await forged.newPage();
  // A listing page renders as usual.
  expect((await page.goto(`${ORIGIN}${setup.salePath}`))?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento de 3 quartos em Pinheiros");
  // A path the proxy never sees (a static file's name): the plain 404, not a site's frame named by the client.
  expect((await page.goto(`${ORIGIN}/missing-file.png`))?.status()).toBe(404);
  await expect(page.locator(".site-header")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await forged.close();
});

test("an unpublished site is previewed under /s/{id} with noindex", async ({ page }) => {
  const res = await page.goto(`/s/${setup.draftSiteId}`);
  expect(res?.status()).toBe(200);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator(".preview-banner")).toBeVisible();
  await expect(page.getByRole("link", { name: "Rascunho" }).first()).toHaveAttribute("href", `/s/${setup.draftSiteId}`);
});

test("locales: /en and /es only where the tenant enables them; listing text falls back to Portuguese", async ({ page }) => {
  await page.goto(`${ORIGIN}/en${setup.salePath}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Three-bedroom apartment in Pinheiros");
  await expect(page.getByText("Large living room with balcony.")).toBeVisible();
  await expect(page.getByText("3 bedrooms").first()).toBeVisible();
  await page.goto(`${ORIGIN}/es${setup.salePath}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento de 3 dormitorios en Pinheiros");
  await expect(page.getByText("Sala ampla com varanda.")).toBeVisible(); // no Spanish description: Portuguese
  // ...marked as Portuguese for screen readers; the translated title is not.
  await expect(page.locator('.rich[lang="pt-BR"]')).toContainText("Sala ampla com varanda.");
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveAttribute("lang", /.+/);
  await page.goto(`${ORIGIN}/es/imoveis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inmuebles en venta y en alquiler");
  expect((await page.goto(`http://${MONO_HOST}:${PORT}/en`))?.status()).toBe(404);
  expect((await page.goto(`http://${MONO_HOST}:${PORT}/`))?.status()).toBe(200);
  const pt = await page.goto(`${ORIGIN}/pt-BR/imoveis`);
  expect(pt?.url()).toBe(`${ORIGIN}/imoveis`);
});

test("without JavaScript: the catalogue filters through its form and facet links, and listings open", async ({ browser }) => {
  const page = await noJs(browser);
  await page.goto(`${ORIGIN}/imoveis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Imóveis à venda e para alugar");
  await expect(page.getByText("2 imóveis encontrados")).toBeVisible();
  await page.locator("form.filters select[name=type]").selectOption("rental");
  await page.getByRole("button", { name: "Aplicar filtros" }).click();
  await expect(page).toHaveURL(/type=rental/);
  await expect(page.getByText("1 imóvel encontrado")).toBeVisible();
  await expect(page.locator(".card .price")).toHaveText("Consulte");
  await page.goto(`${ORIGIN}/imoveis`);
  await page.locator(".facet a", { hasText: "Apartamento" }).click();
  await expect(page).toHaveURL(/propertyType=apartment/);
  await page.getByRole("link", { name: /Apartamento de 3 quartos em Pinheiros/ }).click();
  await expect(page).toHaveURL(`${ORIGIN}${setup.salePath}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento de 3 quartos em Pinheiros");
  await expect(page.locator(".listing-head .price")).toHaveText("R$ 1.250.000");
  await expect(page.locator(".gallery img").first()).toHaveAttribute("width", "1200");
  // The simulator computes on the server from its GET form.
  await page.locator("#simulador input[name=entrada]").fill("250000");
  await page.getByRole("button", { name: "Simular" }).click();
  await expect(page).toHaveURL(/entrada=250000/);
  await expect(page.locator("#simulador table")).toContainText("R$ 1.000.000,00");
  await expect(page.getByText("Bruna Corretora")).toBeVisible();
  await expect(page.getByText("CRECI 123456-F/SP")).toBeVisible();
});

test("location pages are validated (invalid path: 404) and carry a breadcrumb and their own title", async ({ page }) => {
  const res = await page.goto(`${ORIGIN}/imoveis/sp/sao-paulo/pinheiros`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Imóveis em Pinheiros, São Paulo");
  await expect(page).toHaveTitle("Imóveis em Pinheiros, São Paulo | Sites E2E");
  await expect(page.locator(".crumbs")).toContainText("São Paulo");
  expect((await page.goto(`${ORIGIN}/imoveis/sp/campinas`))?.status()).toBe(404);
  expect((await page.goto(`${ORIGIN}/imoveis/xx`))?.status()).toBe(404);
  expect((await page.goto(`${ORIGIN}/imovel/NOPE123`))?.status()).toBe(404);
  // A listing code without its slug goes to the canonical address.
  await page.goto(`${ORIGIN}/imovel/${setup.saleCode.toLowerCase()}`);
  expect(page.url()).toBe(`${ORIGIN}${setup.salePath}`);
});

test("the listing page's lead form (no JavaScript) goes through the site's marketing channel into a deal", async ({ browser, request }) => {
  const page = await noJs(browser);
  await page.goto(`${ORIGIN}${setup.salePath}`);
  await page.getByLabel("Nome").fill("Visitante Interessada");
  await page.getByLabel("E-mail").fill("visitante@example.com");
  await page.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(page).toHaveURL(/lead=sent/);
  await expect(page.getByText("Mensagem enviada!")).toBeVisible();
  await expect
    .poll(
      async () => {
        const deals = await api(request, setup.key, "get", "/api/v1/crm/deals?pageSize=50");
        return JSON.stringify(deals).includes("Visitante Interessada");
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  // Without a way to reply, the form says so and nothing is stored.
  await page.goto(`${ORIGIN}${setup.rentPath}`);
  await page.getByLabel("Nome").fill("Sem contato");
  await page.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(page).toHaveURL(/lead=invalid/);
});

test("one open of a listing page counts one site view in the seller report (not the metadata pass, not the redirect)", async ({ request }) => {
  const link = await api(request, setup.key, "post", "/api/v1/share-links", { entityType: "seller_report", entityId: setup.rentListingId });
  // Opens are written in the background, site views gathered and written once a second.
  const settle = () => new Promise((r) => setTimeout(r, 1500));
  // A resolve answers the figures as they were, then counts its own open of the link.
  const views = async () => (await (await request.get(`/api/sites/share/${link.token}`)).json()).entity.stats.views as number;
  // Views of this listing by earlier tests are written first, so they are in `before`.
  await settle();
  const before = await views();
  await settle();
  // The slug-less address redirects (not a view); the canonical page is one view.
  // Node does not resolve *.localhost as Chromium does: the site is reached by its Host header.
  const site = { host: `${HOST}:${PORT}` };
  const redirect = await request.get(`/imovel/${setup.rentCode}`, { headers: site, maxRedirects: 0 });
  expect(redirect.status()).toBe(308);
  expect((await request.get(setup.rentPath, { headers: site })).status()).toBe(200);
  await settle();
  // +1 for the first resolve's open of the link, +1 for the page.
  expect(await views()).toBe(before + 2);
});

test("sitemap.xml lists every listing and location page in every language; robots.txt points to it", async ({ page }) => {
  await page.goto(`${ORIGIN}/sitemap.xml`);
  const xml = await page.content();
  for (const prefix of ["", "/en", "/es"]) {
    expect(xml).toContain(`${ORIGIN}${prefix}${setup.salePath}`);
    expect(xml).toContain(`${ORIGIN}${prefix}/imoveis/sp/sao-paulo/pinheiros`);
  }
  const robots = await page.goto(`${ORIGIN}/robots.txt`);
  expect(await robots?.text()).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
});

test("JSON-LD and Open Graph on the listing page", async ({ page }) => {
  await page.goto(`${ORIGIN}${setup.salePath}`);
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const types = blocks.map((b) => JSON.parse(b)["@type"]);
  expect(types).toEqual(expect.arrayContaining(["RealEstateListing", "BreadcrumbList"]));
  const listing = blocks.map((b) => JSON.parse(b)).find((b) => b["@type"] === "RealEstateListing");
  expect(listing.offers).toMatchObject({ "@type": "Offer", price: 1250000, priceCurrency: "BRL" });
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${ORIGIN}/demo/living-room-01.svg`);
  await page.goto(`${ORIGIN}/`);
  const home = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((b) => JSON.parse(b)["@type"]);
  expect(home).toContain("RealEstateAgent");
});

test("no private field (spec 2 §2.2 and brokers' e-mails) appears in any page", async ({ page }) => {
  const paths = [
    "/",
    "/imoveis",
    "/imoveis?type=rental",
    "/imoveis/sp/sao-paulo/pinheiros",
    setup.salePath,
    setup.rentPath,
    `/en${setup.salePath}`,
    `/es${setup.rentPath}`,
    "/sitemap.xml",
    "/contato",
  ];
  for (const p of paths) {
    await page.goto(`${ORIGIN}${p}`);
    const html = await page.content();
    for (const marker of FORBIDDEN) expect(html, `${marker} on ${p}`).not.toContain(marker);
  }
  // The markers are really stored: the authenticated API shows the owner and the notes.
  const stored = await (
    await page.request.get(`/api/v1/real-estate/properties/${setup.salePropertyId}`, { headers: { authorization: `Bearer ${setup.key}` } })
  ).text();
  expect(stored).toContain(MARK.ownerEmail);
  expect(stored).toContain(MARK.internalNotes);
});

test("axe finds no violations on home, catalogue, location and listing pages in three locales", async ({ page }) => {
  test.setTimeout(180_000);
  for (const prefix of ["", "/en", "/es"]) {
    for (const p of ["/", "/imoveis", "/imoveis/sp/sao-paulo/pinheiros", setup.salePath]) {
      await page.goto(`${ORIGIN}${prefix}${p === "/" && prefix ? "" : p}`);
      const r = await new AxeBuilder({ page }).analyze();
      expect(r.violations.map((v) => `${prefix}${p}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    }
  }
});

test("similar listings show their translated titles in /en and /es, Portuguese when blank", async ({ page, request }) => {
  // Late in the file: a third listing would change the catalogue counts the tests above assert.
  await api(request, setup.key, "post", "/api/v1/real-estate/properties", {
    property: { type: "apartment", bedrooms: 3, bathrooms: 2, totalArea: "95.00" },
    location: { street: "Rua Fradique Coutinho", neighborhood: "Pinheiros", city: "São Paulo", state: "SP", latitude: -23.5651, longitude: -46.6869 },
    listings: [
      {
        title: "Apartamento vizinho em Pinheiros",
        type: "sale",
        price: "1190000.00",
        stage: "active",
        translations: { en: { title: "Neighbouring flat in Pinheiros" } },
      },
    ],
  });
  await page.goto(`${ORIGIN}/en${setup.salePath}`);
  await expect(page.locator("#similar-title ~ * .card-title")).toHaveText(["Neighbouring flat in Pinheiros"]);
  await page.goto(`${ORIGIN}/es${setup.salePath}`);
  await expect(page.locator("#similar-title ~ * .card-title")).toHaveText(["Apartamento vizinho em Pinheiros"]);
});

// Last in the file: it spends this address's site lead allowance for the next minute.
test("a flood of lead forms from one address is turned back after 10 a minute, and the page says why", async ({ browser, request }) => {
  const site = { host: `${HOST}:${PORT}` };
  const outcomes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await request.post("/lead", {
      headers: site,
      maxRedirects: 0,
      form: { name: `Flood Visitor ${i}`, email: `flood${i}@example.com`, message: "Oi", landingPage: setup.salePath },
    });
    expect(res.status()).toBe(303);
    outcomes.push(new URL(res.headers().location, ORIGIN).searchParams.get("lead") ?? "");
  }
  const sent = outcomes.filter((o) => o === "sent").length;
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThanOrEqual(10);
  expect(outcomes.at(-1)).toBe("limited");
  expect(outcomes.slice(outcomes.indexOf("limited"))).toEqual(outcomes.slice(outcomes.indexOf("limited")).map(() => "limited"));
  // Only what was accepted became deals (processing is in the background: wait for it, then count).
  const flooded = async () => new Set(JSON.stringify(await api(request, setup.key, "get", "/api/v1/crm/deals?pageSize=100")).match(/Flood Visitor \d+/g)).size;
  await expect.poll(flooded, { timeout: 30_000 }).toBeGreaterThanOrEqual(sent);
  await new Promise((r) => setTimeout(r, 1500));
  expect(await flooded()).toBe(sent);
  const page = await noJs(browser);
  await page.goto(`${ORIGIN}${setup.salePath}?lead=limited#lead`);
  await expect(page.getByRole("alert")).toContainText("Aguarde um minuto");
});
