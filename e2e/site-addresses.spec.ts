import { expect, test } from "@playwright/test";
import { api, newTenant } from "./api";

/**
 * Site addresses that hold a dot (issue #15): a listing code may contain '.', so its page must go
 * through the host routing like any other, while the site's static files (`/demo/*.svg`) are still
 * served as files on the tenant's domain.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = "dots-e2e.localhost";
const ORIGIN = `http://${HOST}:${PORT}`;
const CODE = "AP.2024.7";
const SLUG = "apartamento-com-ponto-no-codigo";

test.beforeAll(async ({ request }) => {
  const key = await newTenant(request, "Imobiliária Pontos", "owner@dots-e2e.example.com");
  await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: { type: "apartment", bedrooms: 2, totalArea: "70.00", media: [{ url: "/demo/living-room-01.svg", isPrimary: true }] },
    location: { street: "Rua Augusta", neighborhood: "Consolação", city: "São Paulo", state: "SP" },
    listings: [{ title: "Apartamento com ponto no código", type: "sale", price: "650000.00", stage: "active", listingCode: CODE }],
  });
  // A title without letters has no slug: the listing's address ends in its code, here a file-like one.
  await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: { type: "land", totalArea: "300.00" },
    location: { street: "Rua Harmonia", neighborhood: "Vila Madalena", city: "São Paulo", state: "SP" },
    listings: [{ title: "!!!", type: "sale", price: "400000.00", stage: "active", listingCode: "lote-12.pdf" }],
  });
  await api(request, key, "post", "/api/v1/sites", { name: "Pontos", domain: HOST, published: true });
});

test("a listing whose code ends like a file name opens at its slug-less address", async ({ page }) => {
  await page.goto(`${ORIGIN}/imoveis`);
  await expect(page.locator('a[href="/imovel/lote-12.pdf"]').first()).toBeVisible();
  const res = await page.goto(`${ORIGIN}/imovel/lote-12.pdf`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("!!!");
});

test("addresses no page serves are 404 pages rendered on the server; internal routes are not addresses", async ({ browser, request }) => {
  const noJs = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  for (const path of ["/contato/x", "/imovel", "/a/b/c"]) {
    expect((await noJs.goto(`${ORIGIN}${path}`))?.status(), path).toBe(404);
    await expect(noJs.getByRole("heading", { level: 1 }), path).toHaveText("Página não encontrada");
  }
  // The internal route of this site's listing, asked for directly with a file-like tail, is an unknown site.
  const internal = await request.get(`/site-render/d~${HOST}%3A${PORT}/pt-BR/imovel/${CODE}/x.png`);
  expect(internal.status()).toBe(404);
  expect(await internal.text()).not.toContain("Apartamento com ponto no código");
});

test("a listing whose code holds dots opens from the catalogue, with and without its slug", async ({ page }) => {
  await page.goto(`${ORIGIN}/imoveis`);
  const link = page.locator(`a[href="/imovel/${CODE}/${SLUG}"]`).first();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(`${ORIGIN}/imovel/${CODE}/${SLUG}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento com ponto no código");

  const bare = await page.goto(`${ORIGIN}/imovel/${CODE}`);
  expect(bare?.status()).toBe(200);
  await expect(page).toHaveURL(`${ORIGIN}/imovel/${CODE}/${SLUG}`);

  // Another dotted address the site does not have is the site's own 404 page, in its language.
  const missing = await page.goto(`${ORIGIN}/imovel/AP.0000.1/x`);
  expect(missing?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("link", { name: "Pontos" }).first()).toBeVisible();
});

test("static files stay files on a site's domain", async ({ request }) => {
  // Node's resolver does not know `*.localhost` (Chromium does): the site is asked by Host header.
  const headers = { host: `${HOST}:${PORT}` };
  const svg = await request.get("/demo/kitchen-01.svg", { headers });
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  const robots = await request.get("/robots.txt", { headers });
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`${ORIGIN}/sitemap.xml`);
});
