import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { api, newTenant } from "./api";
import { E2E_TILES_PORT } from "./constants";

/**
 * The maps in a browser: the catalogue's map view and the listing and share pages' map fetch their
 * tiles from MAP_TILES_URL, here a fake tile server on 127.0.0.1 this file starts (the e2e server's
 * MAP_TILES_URL names its port); the catalogue's filter links keep the map view; without
 * JavaScript the listing page keeps its drawing.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
// A new name per run of the file: a retried worker runs beforeAll again.
const HOST = `maps-e2e-${Date.now().toString(36)}.localhost`;
const ORIGIN = `http://${HOST}:${PORT}`;
/** A 1x1 grey PNG: Leaflet sizes every tile to 256 px itself. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPo6OgAAAMmAZHYeXeZAAAAAElFTkSuQmCC", "base64");

let tiles: string[] = [];
let tileServer: http.Server;
let listingPath = "";
let shareToken = "";

test.beforeAll(async ({ request }) => {
  tileServer = http.createServer((req, res) => {
    tiles.push(req.url ?? "");
    res.writeHead(200, { "content-type": "image/png", "access-control-allow-origin": "*" }).end(PNG);
  });
  await new Promise<void>((ok, fail) => tileServer.once("error", fail).listen(E2E_TILES_PORT, "127.0.0.1", ok));
  const key = await newTenant(request, "Imobiliária Mapas E2E", `owner@${HOST.replace(".localhost", "")}.example.com`);
  const made: { listings: { listingCode: string; id: string }[] }[] = [];
  for (const [i, [lat, lng]] of [
    [-23.56712, -46.68345],
    [-23.5612, -46.6901],
    [-23.5701, -46.6803],
  ].entries()) {
    made.push(
      await api(request, key, "post", "/api/v1/real-estate/properties", {
        property: { type: "apartment", bedrooms: 2 + i, bathrooms: 1, totalArea: "80.00", media: [{ url: "/demo/living-room-01.svg", isPrimary: true }] },
        location: {
          street: "Rua dos Pinheiros",
          number: String(100 + i),
          neighborhood: "Pinheiros",
          city: "São Paulo",
          state: "SP",
          latitude: lat,
          longitude: lng,
        },
        listings: [{ title: `Apartamento ${i + 1} em Pinheiros`, type: "sale", price: `${900 + i * 100}000.00`, stage: "active" }],
      }),
    );
  }
  await api(request, key, "post", "/api/v1/sites", { name: "Mapas E2E", domain: HOST, published: true });
  listingPath = `/imovel/${made[0].listings[0].listingCode}`;
  shareToken = (await api(request, key, "post", "/api/v1/share-links", { entityType: "listing", entityId: made[0].listings[0].id })).token;
});

test.afterAll(async () => {
  tileServer.closeAllConnections();
  await new Promise((ok) => tileServer.close(ok));
});

const tilePath = /^\/tiles\/\d{1,2}\/\d+\/\d+\.png$/;

test("the catalogue's map view draws tiles from MAP_TILES_URL and lists the listings; filter links and the form keep the view", async ({ page }) => {
  tiles = [];
  await page.goto(`${ORIGIN}/imoveis?view=map`);
  await expect(page.locator(".map-canvas img.leaflet-tile-loaded").first()).toBeVisible();
  expect(tiles.length).toBeGreaterThan(0);
  for (const t of tiles) expect(t).toMatch(tilePath);
  await expect(page.locator(".leaflet-control-attribution")).toContainText("Tiles: e2e");
  await expect(page.locator(".map-list li").first()).toBeVisible();
  // The view is kept in the URL, and the page carries no framework runtime: only our plain scripts.
  await expect.poll(() => new URL(page.url()).searchParams.get("at")).toMatch(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?,\d{1,2}$/);
  expect(await page.locator('script[src^="/_next/"]').count()).toBe(0);
  // A line of the list is a listing's link or a cluster's zoom button (the keyboard equivalent of the markers).
  await expect(page.locator(".map-list li").first().locator("a[href*='/imovel/'], button")).toHaveCount(1);
  // A facet link (bedrooms), then the filter form: both stay on the map.
  await page.locator(".facet a").first().click();
  await page.waitForURL(/view=map/);
  expect(new URL(page.url()).searchParams.get("view")).toBe("map");
  await page.locator("form.filters button[type=submit]").click();
  await page.waitForLoadState("load");
  expect(new URL(page.url()).searchParams.get("view")).toBe("map");
  await expect(page.locator(".map-canvas")).toBeVisible();
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("a listing page's map: Leaflet on the tiles with the approximate circle; the drawing without JavaScript", async ({ page, browser }) => {
  tiles = [];
  await page.goto(`${ORIGIN}${listingPath}`);
  const figure = page.locator("figure.map");
  await figure.scrollIntoViewIfNeeded();
  await expect(page.locator("figure.map[data-map-ready] img.leaflet-tile-loaded").first()).toBeVisible();
  expect(tiles.length).toBeGreaterThan(0);
  for (const t of tiles) expect(t).toMatch(/^\/tiles\/15\//);
  // The site's public point is approximate: its circle and the dot, and no drawing left.
  await expect(figure.locator(".leaflet-overlay-pane path")).toHaveCount(2);
  await expect(figure.locator("svg[role=img]")).toHaveCount(0);
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  const noJs = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await noJs.goto(`${ORIGIN}${listingPath}`);
  await expect(noJs.locator("figure.map svg[role=img]")).toBeVisible();
  await expect(noJs.locator(".leaflet-container")).toHaveCount(0);
});

test("a share page's map: Leaflet on the tiles around the link's approximate point", async ({ page }) => {
  tiles = [];
  await page.goto(`/p/${shareToken}`);
  await page.locator("figure.map").scrollIntoViewIfNeeded();
  await expect(page.locator("figure.map[data-map-ready] img.leaflet-tile-loaded").first()).toBeVisible();
  expect(tiles.length).toBeGreaterThan(0);
  // A share link's displaced point: the 500 m circle, a wider view.
  for (const t of tiles) expect(t).toMatch(/^\/tiles\/14\//);
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});
