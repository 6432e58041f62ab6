import { expect, test } from "@playwright/test";
import { startFakeSmtp, type FakeSmtp } from "../test/fakes/smtp-server";
import { api, newTenant } from "./api";
import { E2E_SMTP_PASSWORD, E2E_SMTP_PORT, E2E_SMTP_USER } from "./constants";

/**
 * Saved-search alerts in a browser: a visitor saves the catalogue's search with the Avise-me
 * form, opens the confirmation link from the mail (captured by a fake SMTP server on 127.0.0.1 this
 * file starts; the e2e server's SMTP_URL names its port), confirms with the page's button, and a
 * listing published through the API afterwards arrives as an alert mail.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = `alerts-e2e-${Date.now().toString(36)}.localhost`;
const ORIGIN = `http://${HOST}:${PORT}`;
const EMAIL = `visitante-${Date.now().toString(36)}@cliente.test`;

let smtp: FakeSmtp;
let key = "";

const property = (title: string) => ({
  property: { type: "apartment", bedrooms: 2, bathrooms: 1, totalArea: "70.00" },
  location: { street: "Rua Harmonia", number: "10", neighborhood: "Vila Madalena", city: "São Paulo", state: "SP" },
  listings: [{ title, type: "sale", price: "750000.00", stage: "active" }],
});
const mailsTo = (to: string) => smtp.state.received.filter((m) => m.to.includes(to));

test.beforeAll(async ({ request }) => {
  smtp = await startFakeSmtp({ user: E2E_SMTP_USER, password: E2E_SMTP_PASSWORD, port: E2E_SMTP_PORT });
  key = await newTenant(request, "Imobiliária Alertas E2E", `owner@${HOST.replace(".localhost", "")}.example.com`);
  await api(request, key, "post", "/api/v1/real-estate/properties", property("Apartamento antigo na Vila Madalena"));
  await api(request, key, "post", "/api/v1/sites", { name: "Alertas E2E", domain: HOST, published: true });
  // The site's channel: the confirmed search becomes its lead.
  await api(request, key, "post", "/api/v1/settings/marketing-channels", { name: "Site", kind: "website" });
});

test.afterAll(async () => {
  await smtp?.close();
});

test("save a search, confirm it from the mail with the page's button, receive the alert of a new listing", async ({ page, request }) => {
  await page.goto(`${ORIGIN}/imoveis`);
  const form = page.locator("#avise-me");
  await form.getByLabel("Nome").fill("Visitante");
  await form.locator('input[name="email"]').fill(EMAIL);
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Criar alerta" }).click();
  await expect(page.locator("#avise-me").getByRole("status")).toContainText("Quase lá");

  await expect.poll(() => mailsTo(EMAIL).length, { timeout: 30_000 }).toBe(1);
  const link = /(http:\/\/\S+\/alertas\/confirmar\/[^\s"<]+)/.exec(mailsTo(EMAIL)[0].parsed.text ?? "")?.[1] ?? "";
  expect(link.startsWith(`${ORIGIN}/alertas/confirmar/`)).toBe(true);

  // Opening the link (as a mail scanner would) confirms nothing: the page asks.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirme seu alerta");
  await page.getByRole("button", { name: "Confirmar alerta" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alerta confirmado");

  await api(request, key, "post", "/api/v1/real-estate/properties", property("Apartamento novo na Vila Madalena"));
  await expect.poll(() => mailsTo(EMAIL).length, { timeout: 60_000 }).toBe(2);
  const alert = mailsTo(EMAIL)[1];
  expect(alert.parsed.text).toContain("Apartamento novo na Vila Madalena");
  expect(alert.parsed.text).not.toContain("Apartamento antigo");
  expect(String(alert.raw)).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
});
