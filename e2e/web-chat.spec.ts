import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { api, newTenant } from "./api";

/**
 * Web chat end to end on the production build: a visitor opens the chat on a tenant's listing
 * page, leaves a contact with consent and writes; a member sees the conversation through the
 * messaging API and replies; the reply streams into the open widget (Server-Sent Events over
 * fetch) without a reload; the visitor's contact became a lead whose deal the conversation links.
 * The open widget is checked with axe and by keyboard (focus stays in the dialog, Escape returns it).
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = "chat-e2e.localhost";
const ORIGIN = `http://${HOST}:${PORT}`;

type Setup = { key: string; channelId: string; listingPath: string; listingId: string };
let setup: Setup;

test.beforeAll(async ({ request }) => {
  const key = await newTenant(request, "Imobiliária Chat E2E", "owner@chat-e2e.example.com");
  const broker = await api(request, key, "post", "/api/v1/settings/members", { name: "Bia Corretora", email: "bia@chat-e2e.example.com", role: "broker" });
  await api(request, key, "post", "/api/v1/settings/marketing-channels", { name: "Site", kind: "website", queue: [broker.id] });
  const channel = await api(request, key, "post", "/api/v1/settings/messaging-channels", { name: "Chat do site", transport: "web_chat" });
  const created = await api(request, key, "post", "/api/v1/real-estate/properties", {
    property: { type: "apartment", bedrooms: 2, bathrooms: 1, totalArea: "70.00", media: [{ url: "/demo/living-room-01.svg", isPrimary: true }] },
    location: { neighborhood: "Vila Mariana", city: "São Paulo", state: "SP" },
    listings: [{ title: "Apartamento na Vila Mariana", type: "sale", price: "640000.00", stage: "active" }],
  });
  await api(request, key, "post", "/api/v1/sites", {
    name: "Chat E2E",
    domain: HOST,
    published: true,
    chat: { channelId: channel.id, greeting: "Olá! Como podemos ajudar?", hours: null },
  });
  const listing = created.listings[0];
  setup = {
    key,
    channelId: channel.id,
    listingId: listing.id,
    listingPath: `/imovel/${listing.listingCode}/apartamento-na-vila-mariana`,
  };
});

test("a visitor chats on a listing page and the member's reply streams into the open widget", async ({ page, request }) => {
  const widgetLoads: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/chat/widget.js")) widgetLoads.push(r.url());
  });
  expect((await page.goto(`${ORIGIN}${setup.listingPath}`))?.status()).toBe(200);
  const opener = page.getByRole("button", { name: /converse conosco/i });
  await expect(opener).toBeVisible();
  // The panel's script is not part of the page until the chat is opened.
  await page.waitForLoadState("networkidle");
  expect(widgetLoads).toEqual([]);

  await opener.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  expect(widgetLoads).toHaveLength(1);
  await expect(opener).toHaveAttribute("aria-expanded", "true");
  await expect(dialog.getByText("Olá! Como podemos ajudar?")).toBeVisible();
  // The message box has focus; the open panel passes axe.
  await expect(dialog.getByRole("textbox", { name: /mensagem/i })).toBeFocused();
  const axe = await new AxeBuilder({ page }).include("#wc").analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);

  // Contact with consent, then a message (Enter sends).
  await dialog.getByText("Seu contato (opcional)").click();
  await dialog.getByRole("textbox", { name: "Nome" }).fill("Marina Teste");
  await dialog.getByRole("textbox", { name: "Telefone ou WhatsApp" }).fill("(11) 98123-4567");
  await dialog.getByRole("checkbox").check();
  const box = dialog.getByRole("textbox", { name: /mensagem/i });
  await box.fill("Oi! O apartamento aceita financiamento?");
  await box.press("Enter");
  const log = dialog.getByRole("log");
  await expect(log).toContainText("Oi! O apartamento aceita financiamento?");
  await expect(box).toHaveValue("");

  // The member finds the conversation through the messaging API (the visitor's name, the listing it started on).
  let chatId = "";
  await expect
    .poll(async () => {
      const list = await api(request, setup.key, "get", `/api/v1/messaging/conversations?channelId=${setup.channelId}`);
      const c = list.conversations.find((x: { participant: { displayName: string } }) => x.participant.displayName === "Marina Teste");
      chatId = c?.key.chatId ?? "";
      return chatId;
    })
    .not.toBe("");
  const q = `channelId=${setup.channelId}&chatId=${encodeURIComponent(chatId)}`;
  const detail = await api(request, setup.key, "get", `/api/v1/messaging/conversations/detail?${q}`);
  expect(detail.origin).toMatchObject({ listingId: setup.listingId });
  expect(detail.history.messages.map((m: { text: string }) => m.text)).toContain("Oi! O apartamento aceita financiamento?");

  // The member replies; the open widget shows it without a reload.
  const sentAt = Date.now();
  const ack = await api(request, setup.key, "post", "/api/v1/messaging/reply", {
    channelId: setup.channelId,
    chatId,
    body: { kind: "text", text: "Aceita sim! Quer agendar uma visita?" },
  });
  expect(ack).toMatchObject({ status: "sent", reason: null });
  await expect(log).toContainText("Aceita sim! Quer agendar uma visita?", { timeout: 5_000 });
  const delivered = Date.now() - sentAt;
  // Issue 35: a reply reaches the open stream within 2 s.
  expect(delivered).toBeLessThan(2_000);

  // The contact left with consent became a lead; the conversation links its deal and contact.
  let dealId: string | null = null;
  await expect
    .poll(
      async () => {
        dealId = (await api(request, setup.key, "get", `/api/v1/messaging/conversations/detail?${q}`)).conversation.links.primaryDealId;
        return dealId;
      },
      { timeout: 15_000 },
    )
    .not.toBeNull();
  const deal = await api(request, setup.key, "get", `/api/v1/crm/deals/${dealId}`);
  expect(JSON.stringify(deal)).toContain("Marina Teste");

  // Keyboard: Tab stays inside the open dialog; Escape closes it and gives focus back to the button.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#wc-panel")))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(opener).toHaveAttribute("aria-expanded", "false");

  // A reload keeps the conversation (the session token in this browser) and its history.
  await page.reload();
  await page.getByRole("button", { name: /converse conosco/i }).click();
  await expect(page.getByRole("log")).toContainText("Aceita sim! Quer agendar uma visita?");
});
