import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { api, newTenant } from "./api";

/**
 * Booking a visit on a rendered site (issue 37): the broker publishes availability, a visitor opens
 * the listing page, picks the first free time, books it, and the broker's key then sees the visit
 * task on the broker's calendar and the deal it belongs to. The booking section passes axe.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = "visits-e2e.localhost";
const ORIGIN = `http://${HOST}:${PORT}`;

let key: string;
let brokerId: string;
let listingId: string;
let code: string;
let siteId: string;

test.beforeAll(async ({ request }) => {
  key = await newTenant(request, "Imobiliária Visitas E2E", "owner@visits-e2e.example.com");
  const broker = await api(request, key, "post", "/api/v1/settings/members", { name: "Bruno Corretor", email: "bruno@visits-e2e.example.com", role: "broker" });
  brokerId = broker.id;
  const weekly = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: "07:00", end: "22:00" }));
  const put = await request.put(`/api/v1/members/${brokerId}/availability`, {
    headers: { authorization: `Bearer ${key}` },
    data: { timezone: "America/Sao_Paulo", weekly, exceptions: [], slotMinutes: 60 },
  });
  expect(put.status(), await put.text()).toBe(200);
  const property = await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: { type: "apartment", bedrooms: 2, totalArea: "70.00", assignedToId: brokerId },
    location: { neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
    listings: [{ title: "Apartamento para visitar em Pinheiros", type: "sale", price: "780000.00", stage: "active" }],
  });
  listingId = property.listings[0].id;
  code = property.listings[0].listingCode;
  siteId = (await api(request, key, "post", "/api/v1/sites", { name: "Visitas", domain: HOST, published: true })).id;
});

test("a visitor books the first free time and the broker sees the visit on the deal", async ({ page, request }) => {
  await page.goto(`${ORIGIN}/imovel/${code}`);
  const section = page.locator("section#visit");
  await expect(section.getByRole("heading", { name: "Agende uma visita" })).toBeVisible();
  const first = section.getByRole("radio").first();
  await expect(first).toBeVisible({ timeout: 15_000 });
  const axe = await new AxeBuilder({ page }).include("section#visit").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  const start = await first.getAttribute("value");
  await first.check();
  await section.getByLabel("Nome").fill("Paula Visitante");
  await section.getByLabel("Telefone ou WhatsApp").fill("(11) 98765-4321");
  await section.getByLabel(/Aceito ser contatado/).check();
  await section.getByRole("button", { name: "Agendar visita" }).click();
  await expect(section.getByRole("status")).toContainText("Visita agendada");

  const tasks = await api(request, key, "get", `/api/v1/crm/tasks?listingId=${listingId}&type=visit`);
  expect(tasks.items).toHaveLength(1);
  expect(tasks.items[0]).toMatchObject({ assigneeId: brokerId, status: "open", dueAt: start });
  const deal = await api(request, key, "get", `/api/v1/crm/deals/${tasks.items[0].dealId}`);
  expect(deal.assignedToId).toBe(brokerId);
  expect(JSON.stringify(deal.contacts)).toContain("+5511987654321");

  // The slot is no longer offered.
  const slots = await request.get(`/api/sites/${siteId}/listings/${listingId}/visit-slots`);
  expect(slots.status()).toBe(200);
  expect((await slots.json()).slots.map((s: { start: string }) => s.start)).not.toContain(start);
});
