import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { api } from "./api";
import { E2E_OPERATOR_TOKEN } from "./constants";

/**
 * The brokers' share preview `/preview/share` (issue #16) on the production build: sign in with
 * an API key, pick a listing, change draft values and see the recipient's page change in the
 * preview, save as the owner; a broker's restricted key may preview but its save is refused (403).
 */
let ownerKey: string;
let brokerKey: string;

test.beforeAll(async ({ request }) => {
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: `Prévia E2E ${Date.now().toString(36)}`, owner: { name: "Dona", email: `owner-${Date.now()}@preview-e2e.example.com` } },
  });
  expect(tenant.status()).toBe(201);
  ownerKey = (await tenant.json()).apiKey;
  await api(request, ownerKey, "patch", "/api/v1/settings", { branding: { name: "Prévia Imóveis", logo: null, primaryColor: "#0f5132" } });
  const broker = await api(request, ownerKey, "post", "/api/v1/settings/members", {
    name: "Bia Corretora",
    email: `bia-${Date.now()}@preview-e2e.example.com`,
    role: "broker",
  });
  brokerKey = (await api(request, ownerKey, "post", "/api/v1/settings/api-keys", { userId: broker.id, name: "Bia", scope: "restricted" })).key;
  await api(request, ownerKey, "post", "/api/v1/real-estate/properties", {
    property: { type: "apartment", bedrooms: 3, bathrooms: 2, totalArea: "120.00", condominiumFee: "1450.00" },
    location: { street: "Rua Harmonia", number: "123", neighborhood: "Vila Madalena", city: "São Paulo", state: "SP", latitude: -23.5558, longitude: -46.6896 },
    listings: [{ title: "Apartamento com vista na Vila Madalena", type: "sale", price: "1890000.00", stage: "active" }],
  });
});

test("sign in with a key, pick, see a draft change in the preview, save; sign out", async ({ page, request }) => {
  await page.goto("/preview/share");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Share preview");
  await page.getByLabel("API key").fill("crm_wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("That API key is unknown");
  await page.getByLabel("API key").fill(ownerKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "crm_preview");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/preview" });
  expect(JSON.stringify(cookies)).not.toContain(ownerKey);
  const axe = await new AxeBuilder({ page }).exclude("iframe").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  const value = await page.locator("#f-pick option", { hasText: "Apartamento com vista na Vila Madalena" }).getAttribute("value");
  await page.getByLabel("What to preview").selectOption(value!);
  const frame = page.frameLocator("#preview");
  await expect(frame.getByRole("heading", { level: 1 })).toContainText("Apartamento com vista na Vila Madalena");
  await expect(frame.locator("body")).toContainText("1.890.000");
  // A draft change re-renders the preview at once (no save, no reload of the page).
  await page.getByLabel("Price", { exact: true }).selectOption("hidden");
  await expect(frame.locator("body")).not.toContainText("1.890.000");
  await page.getByLabel("Name", { exact: true }).fill("Prévia Rascunho");
  await expect(frame.locator("body")).toContainText("Prévia Rascunho");
  // Not saved yet.
  expect((await api(request, ownerKey, "get", "/api/v1/settings")).branding.name).toBe("Prévia Imóveis");

  await page.getByRole("button", { name: "Save these settings" }).click();
  await expect(page.getByRole("status")).toContainText("Saved");
  const saved = await api(request, ownerKey, "get", "/api/v1/settings");
  expect(saved.branding.name).toBe("Prévia Rascunho");
  expect(saved.sharingConfig.fieldVisibility.price).toBe("hidden");
  await expect(page.frameLocator("#preview").locator("body")).not.toContainText("1.890.000");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByLabel("API key")).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === "crm_preview")).toBeUndefined();
});

test("without JavaScript the draft form still previews; a broker's key may preview but not save (403)", async ({ browser }) => {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await page.goto("/preview/share");
  await page.getByLabel("API key").fill(brokerKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Only an owner's or an admin's key can save")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Tentativa da corretora");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(page).toHaveURL(/name=Tentativa/);
  await expect(page.frameLocator("#preview").locator("body")).toContainText("Tentativa da corretora");
  const save = page.waitForResponse((r) => r.url().endsWith("/preview/share/save"));
  await page.getByRole("button", { name: "Save these settings" }).click();
  expect((await save).status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not allowed to save");
});
