import { expect, test } from "@playwright/test";
import { api, newTenant } from "./api";

/**
 * Favourites and compare (issue 37) in Chromium: a visitor hearts two listings on the catalogue
 * (kept in the browser), opens the compare view, sends its lead form, and the deal the lead
 * became lists the favourites and the comparison as interests. The compare page shows no
 * private field (owner, notes, street number, a private price).
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
// Unique per run of the file: a retry in a new worker runs beforeAll again.
const HOST = `fav-${Date.now().toString(36)}.localhost`;
const ORIGIN = `http://${HOST}:${PORT}`;
const SHOTS = process.env.FAV_SCREENSHOTS; // a folder: cards and compare at phone and desktop sizes
const MARK = { owner: "FavOwnerMarkerQx", notes: "FavNotesMarkerQx", number: "FavNumMarkQx", email: "fav-owner-qx@private.example.com" };

let key: string;
const id: Record<string, string> = {};

test.beforeAll(async ({ request }) => {
  key = await newTenant(request, "Imobiliária Favoritos E2E", "owner@fav-e2e.example.com");
  await api(request, key, "post", "/api/v1/settings/marketing-channels", { name: "Site", kind: "website" });
  const owner = { name: MARK.owner, email: MARK.email, phone: "+5511977770001" };
  const make = async (k: string, title: string, price: string, extra: Record<string, unknown> = {}, photo = "/demo/living-room-01.svg") => {
    const res = await api(request, key, "post", "/api/v1/real-estate/properties", {
      property: {
        type: "apartment",
        bedrooms: 2,
        bathrooms: 2,
        suites: 1,
        parkingSpaces: 1,
        totalArea: "80.00",
        privateArea: "72.00",
        condominiumFee: "900.00",
        propertyTax: "1800.00",
        owner,
        internalNotes: MARK.notes,
        media: [{ url: photo, isPrimary: true }],
      },
      location: { street: "Rua Fradique Coutinho", number: MARK.number, neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title, type: "sale", price, stage: "active", visibility: "public", ...extra }],
    });
    id[k] = res.listings[0].id;
  };
  await make("a", "Apartamento com varanda em Pinheiros", "900000.00");
  await make("b", "Apartamento reformado perto do metrô", "1100000.00", { priceVisibility: "private" }, "/demo/kitchen-01.svg");
  await api(request, key, "post", "/api/v1/sites", { name: "Favoritos E2E", domain: HOST, published: true });
});

test("hearts on the catalogue, the compare view, the lead form: the deal lists the interests", async ({ page, request }) => {
  await page.goto(`${ORIGIN}/imoveis`);
  const heartA = page.locator(`button[data-fav="${id.a}"]`);
  const heartB = page.locator(`button[data-fav="${id.b}"]`);
  await expect(heartA).toBeVisible();
  await expect(heartA).toHaveAttribute("aria-pressed", "false");
  await expect(heartA).toHaveAccessibleName("Favoritar: Apartamento com varanda em Pinheiros");
  const synced = page.waitForResponse((r) => r.url().includes("/favourites") && r.request().method() === "POST");
  await heartA.click();
  await heartB.click();
  await expect(heartA).toHaveAttribute("aria-pressed", "true");
  const bar = page.locator("[data-fav-bar]");
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("2 favoritos");
  expect((await synced).status()).toBe(200);
  // Kept in the browser: a reload shows the same hearts.
  await page.reload();
  await expect(heartB).toHaveAttribute("aria-pressed", "true");
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/fav-cards-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/fav-cards-phone.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  const compared = page.waitForResponse((r) => r.url().includes("/favourites") && r.request().postData()?.includes("compared") === true);
  await bar.click();
  await expect(page).toHaveURL(/\/comparar\?ids=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comparar imóveis");
  expect((await compared).status()).toBe(200);
  const table = page.locator("table.compare");
  await expect(table.locator("thead th")).toHaveCount(2);
  await expect(table.getByRole("row", { name: /Preço por m²/ })).toContainText("12.500");
  await expect(table.getByRole("row", { name: /^Preço/ }).first()).toContainText("Consulte");
  await expect(table.getByRole("row", { name: /Condomínio/ })).toContainText("900");
  const html = await page.content();
  for (const m of [...Object.values(MARK), "1.100.000", "1100000"]) expect(html).not.toContain(m);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/fav-compare-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/fav-compare-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  await page.getByLabel("Nome").fill("Marina Compradora");
  await page.getByLabel("E-mail").fill("marina@example.com");
  await page.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(page).toHaveURL(/lead=sent/);

  // The lead job makes the deal in the background: poll for it and its interests.
  let deal: { interests: { listingId: string; kind: string }[] } | null = null;
  await expect
    .poll(
      async () => {
        const list = await api(request, key, "get", "/api/v1/crm/deals");
        if (!list.items.length) return [];
        deal = await api(request, key, "get", `/api/v1/crm/deals/${list.items[0].id}`);
        return deal!.interests.map((i) => `${i.kind}:${i.listingId}`).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual([`compared:${id.a}`, `compared:${id.b}`, `favourite:${id.a}`, `favourite:${id.b}`].sort());
});

test("without JavaScript the page shows no heart and no bar", async ({ browser }) => {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await page.goto(`${ORIGIN}/imoveis`);
  await expect(page.getByText("Apartamento com varanda em Pinheiros")).toBeVisible();
  await expect(page.locator("button[data-fav]").first()).toBeHidden();
  await expect(page.locator("[data-fav-bar]")).toBeHidden();
});
