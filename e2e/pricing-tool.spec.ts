import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { api as apiAs } from "./api";
import { E2E_OPERATOR_TOKEN } from "./constants";

/**
 * The pricing tool `/c/{token}` (issue #16) on the production build: the whole flow without
 * JavaScript (plain forms, "did you mean" for a typo) and with it (live suggestions), on the
 * service host and on the tenant's share domain; axe on every step; the lead stored as a deal;
 * no owner data or internal note in any page.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const MARK = { owner: "OwnerPricingE2eZq", email: "owner-pricing-e2e-zq@private.example.com", notes: "NotesPricingE2eZq", number: "NumPricingE2eZq" };

let key: string;
let token: string;
let slug: string;

/** This file's tenant key, through the shared `/api/v1` helper. */
const api = (request: APIRequestContext, method: "post" | "patch" | "get", path: string, data?: unknown) => apiAs(request, key, method, path, data);

test.beforeAll(async ({ request }) => {
  // Unique per worker: a worker restarted after a failure runs this again on the same server.
  slug = `avalia-e2e-${Date.now().toString(36)}`;
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Avalia Imóveis E2E", slug, owner: { name: "Owner", email: "owner@pricing-e2e.example.com" } },
  });
  expect(tenant.status()).toBe(201);
  const body = await tenant.json();
  key = body.apiKey;
  await api(request, "patch", "/api/v1/settings", {
    listingLanguages: ["pt-BR", "en"],
    branding: { name: "Avalia Imóveis", logo: null, primaryColor: "#0f5132" },
  });
  const homes = [
    [70, 15000],
    [75, 15400],
    [80, 14800],
    [85, 14600],
    [90, 15600],
    [78, 15000],
    [82, 15200],
  ] as const;
  for (const [i, [area, ppsqm]] of homes.entries()) {
    await api(request, "post", "/api/v1/real-estate/properties", {
      property: {
        type: "apartment",
        bedrooms: 2,
        bathrooms: 2,
        parkingSpaces: 1,
        totalArea: area.toFixed(2),
        owner: { name: MARK.owner, email: MARK.email },
        internalNotes: MARK.notes,
      },
      location: {
        street: "Rua dos Pinheiros",
        number: MARK.number,
        neighborhood: "Pinheiros",
        city: "São Paulo",
        state: "SP",
        postalCode: "05422-001",
        latitude: -23.5662 + i * 0.0004,
        longitude: -46.6912,
      },
      listings: [{ title: `Apartamento ${i}`, type: "sale", price: (area * ppsqm).toFixed(2), stage: "active" }],
    });
  }
  const tool = await api(request, "get", "/api/v1/settings/pricing-tool");
  token = tool.token;
});

const noJs = async (browser: Browser) => (await browser.newContext({ javaScriptEnabled: false })).newPage();

async function axe(page: Page, step: string) {
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.map((v) => `${step}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  const html = await page.content();
  for (const m of Object.values(MARK)) expect(html, `${m} on ${step}`).not.toContain(m);
}

async function dealWith(request: APIRequestContext, name: string) {
  await expect.poll(async () => JSON.stringify(await api(request, "get", "/api/v1/crm/deals?pageSize=50")).includes(name), { timeout: 30_000 }).toBe(true);
}

test("without JavaScript: city, a typo corrected by 'did you mean', profile, estimate, errors, then the lead", async ({ browser, request }) => {
  const page = await noJs(browser);
  const res = await page.goto(`/c/${token}`);
  expect(res?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quanto vale o seu imóvel?");
  await page.getByRole("radio", { name: /São Paulo/ }).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Em qual bairro?");
  await page.getByLabel("Bairro em São Paulo").fill("pinheros");
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByText("Não encontramos “pinheros” em São Paulo. Você quis dizer:")).toBeVisible();
  await page.getByRole("link", { name: "Pinheiros", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conte-nos sobre o imóvel");
  // Submitting without the area: the error names the field and is tied to it.
  await page.getByRole("radio", { name: "Apartamento" }).check();
  await page.getByRole("button", { name: "Ver a estimativa" }).click();
  await expect(page.getByLabel("Área total em m²")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#f-totalArea-err")).toHaveText("Digite a área total em m².");
  await page.getByLabel("Área total em m²").fill("80");
  await page.getByLabel(/Quartos/).fill("2");
  await page.getByRole("button", { name: "Ver a estimativa" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sua estimativa");
  await expect(page.locator(".result .value")).toHaveText(/^R\$\s1\.\d{3}\.\d{3}$/);
  await expect(page.getByText(/^Provavelmente entre R\$/)).toBeVisible();
  await expect(page.locator(".conf strong")).toHaveText(/Confiança (alta|média|baixa)/);
  await page.getByRole("button", { name: "Falar com Avalia Imóveis" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seu contato");
  await page.getByRole("button", { name: "Enviar meu contato" }).click();
  await expect(page.locator("#errors")).toContainText("Corrija 4 respostas:");
  await expect(page.getByLabel("Seu nome")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Seu nome").fill("Proprietária Sem Script");
  await page.getByRole("textbox", { name: "Telefone ou WhatsApp" }).fill("(11) 91234-5678");
  await page.getByRole("radio", { name: "Quero vender este imóvel" }).check();
  await page.getByRole("checkbox", { name: /Concordo que Avalia Imóveis/ }).check();
  await page.getByRole("button", { name: "Enviar meu contato" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Obrigado!");
  await expect(page).toHaveURL(new RegExp(`/c/${token}\\?step=sent$`));
  await dealWith(request, "Proprietária Sem Script");
});

test("with JavaScript, on the share domain: live suggestions, axe on every step, the lead in English", async ({ page, request }) => {
  const origin = `http://${slug}.share.localhost:${PORT}`;
  const res = await page.goto(`${origin}/en/c/${token}`);
  expect(res?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await axe(page, "city");
  await page.getByRole("radio", { name: /São Paulo/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await axe(page, "neighbourhood");
  const input = page.getByLabel("Neighbourhood in São Paulo");
  await input.pressSequentially("pinh", { delay: 30 });
  await expect(page.locator("#nb-list option")).toHaveCount(1);
  await expect(page.locator("#nb-list option")).toHaveAttribute("value", "Pinheiros");
  await expect(page.locator("#nb-status")).toHaveText("1 suggestion");
  await input.fill("Pinheiros");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tell us about the property");
  await axe(page, "profile");
  await page.getByRole("radio", { name: "Apartment" }).check();
  await page.getByLabel("Total area in m²").fill("80");
  await page.getByRole("button", { name: "See the estimate" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your estimate");
  await expect(page.locator(".result .value")).toHaveText(/^R\$\s?1,\d{3},\d{3}$/);
  await axe(page, "estimate");
  await page.getByRole("button", { name: "Talk to Avalia Imóveis" }).click();
  await axe(page, "contact");
  await page.getByLabel("Your name").fill("Owner With Script");
  await page.getByRole("textbox", { name: "E-mail" }).fill("owner-with-script@example.com");
  await page.getByRole("radio", { name: "I only want to know its value" }).check();
  await page.getByRole("checkbox", { name: /I agree that Avalia Imóveis/ }).check();
  await page.getByRole("button", { name: "Send my contact" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you!");
  await axe(page, "sent");
  await dealWith(request, "Owner With Script");
});

test("status pages: unknown token 404, a language the tenant did not enable 404, another tenant's host 404", async ({ page }) => {
  const unknown = await page.goto(`/c/${"A".repeat(32)}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Link não encontrado");
  await axe(page, "not found");
  expect((await page.goto(`/es/c/${token}`))?.status()).toBe(404);
  expect((await page.goto(`http://someone-else.localhost:${PORT}/c/${token}`))?.status()).toBe(404);
});
