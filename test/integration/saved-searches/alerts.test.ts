/**
 * Saved searches end to end on a real database and a real SMTP server on 127.0.0.1: validation,
 * consent, double opt-in, alerts from committed listing changes (new, published, price drop),
 * dedupe, the hourly cap, one-click unsubscribe, the lead and the members' list, tenant isolation.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../../../db/rows";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as createRoute from "../../../app/api/sites/[siteId]/saved-searches/route";
import * as listRoute from "../../../app/api/v1/crm/saved-searches/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as linkRoute from "../../../app/site-render/[site]/[locale]/alertas/[action]/[token]/route";
import { getDb } from "../../../db/client";
import { inboundLeads, savedSearches } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { processLeads } from "../../../lib/leads/inbound/process-batch";
import { sendSavedSearchMessages } from "../../../lib/saved-searches/deliver";
import { alertLink, confirmSavedSearch, unsubscribeSavedSearch } from "../../../lib/saved-searches/links";
import { matchSavedSearches } from "../../../lib/saved-searches/match";
import { startFakeSmtp, type FakeSmtp } from "../../fakes/smtp-server";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

// The link pages read the request's host through next/headers, which has no request scope here.
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "localhost", "x-forwarded-proto": "https" }) }));

let smtp: FakeSmtp;
let a: TestTenant;
let b: TestTenant;
let siteA: { id: string; domain: string };
let siteB: { id: string; domain: string };

const filters = { type: "sale", city: "Sao Paulo", bedrooms: 2, maxPrice: 900000 };

beforeAll(async () => {
  smtp = await startFakeSmtp({ user: "svc", password: "svc-pass" });
  process.env.SMTP_URL = `smtp://svc:svc-pass@${smtp.host}:${smtp.port}`;
  process.env.MAIL_FROM = "alertas@crm.test";
  resetConfigForTests();
  a = await makeTenant("Imobiliária Alfa");
  b = await makeTenant("Imobiliária Beta");
  siteA = await makeSite(a);
  siteB = await makeSite(b);
  for (const t of [a, b]) {
    const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Site", kind: "website" } });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetConfigForTests();
  await smtp.close();
});

let clients = 0;
const save = (siteId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(createRoute.POST, "POST", `/api/sites/${siteId}/saved-searches`, {
    params: { siteId },
    body,
    headers: { "x-crm-client-address": `10.0.${Math.floor(++clients / 250)}.${clients % 250}`, ...headers },
  });
const valid = (over: Record<string, unknown> = {}) => ({
  filters,
  contact: { name: "Carla", email: `carla-${Math.random().toString(36).slice(2, 8)}@cliente.test` },
  channel: "email",
  frequency: "instant",
  consent: true,
  locale: "pt-BR",
  ...over,
});

async function listing(t: TestTenant, over: { price?: string; stage?: string; city?: string; bedrooms?: number; title?: string } = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: over.bedrooms ?? 3, totalArea: "80" },
      location: { city: over.city ?? "São Paulo", neighborhood: "Pinheiros", state: "SP" },
      listings: [{ title: over.title ?? "Apartamento em Pinheiros", type: "sale", price: over.price ?? "850000", stage: over.stage ?? "active" }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.listings[0] as { id: string; listingCode: string };
}
const patch = (t: TestTenant, id: string, body: Record<string, unknown>) =>
  call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body }).then((r) => expect(r.status).toBe(200));

/** What a commit leads to: the matcher reads the outbox, then the messages job sends what is due. */
async function runJobs() {
  const db = await getDb();
  while (await matchSavedSearches(db));
  await sendSavedSearchMessages(db);
}
const mailsTo = (to: string) => smtp.state.received.filter((m) => m.to.includes(to));
const tokenOf = (text: string, action: "confirmar" | "sair") => new RegExp(`/alertas/${action}/([^\\s"<]+)`).exec(text)?.[1] ?? "";

async function confirmedSearch(body = valid()) {
  const res = await save(siteA.id, body, { origin: `http://${siteA.domain}:3000` });
  expect(res.status).toBe(201);
  await runJobs();
  const [confirmation] = mailsTo((body.contact as { email: string }).email);
  const token = tokenOf(confirmation.parsed.text ?? "", "confirmar");
  expect((await confirmSavedSearch(await getDb(), token, a.tenantId))?.row.status).toBe("active");
  return { id: res.body.id as string, email: (body.contact as { email: string }).email };
}

describe("saving a search", () => {
  it("refuses bad bodies with a 400 naming the field, storing nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(savedSearches)).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [valid({ consent: false }), /consent/],
      [valid({ consent: undefined }), /consent/],
      [valid({ filters: { ...filters, colour: "blue" } }), /colour/],
      [valid({ filters: { minPrice: 900000, maxPrice: 100 } }), /minPrice/],
      [valid({ filters: { propertyType: "castle" } }), /propertyType/],
      [valid({ contact: { name: "Sem e-mail" } }), /contact\.email|email/],
      [valid({ contact: { email: "não é e-mail" } }), /e-mail/],
      [valid({ channel: "whatsapp", contact: { email: "a@b.test" } }), /phone/],
      [valid({ channel: "pigeon" }), /channel/],
      [valid({ frequency: "weekly" }), /frequency/],
      [valid({ visitorId: "not-a-uuid" }), /visitorId/],
    ];
    for (const [body, field] of cases) {
      const res = await save(siteA.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(field);
    }
    expect((await db.select().from(savedSearches)).length).toBe(before);
    expect((await save("00000000-0000-4000-8000-000000000000", valid())).status).toBe(404);
  });

  it("is rate limited per client address (named policy saved_search: 5 a minute)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await save(siteA.id, valid({ consent: false }), { "x-crm-client-address": "10.9.9.9" })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("stores a pending search with its consent and sends only the confirmation, in the visitor's language", async () => {
    const body = valid({ locale: "en" });
    const res = await save(siteA.id, body, {
      origin: `http://${siteA.domain}:3000`,
      "user-agent": "Firefox",
      referer: `http://${siteA.domain}:3000/en/imoveis`,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), status: "pending" });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const [row] = await (await getDb()).select().from(savedSearches).where(eq(savedSearches.id, res.body.id));
    expect(row).toMatchObject({ status: "pending", tenantId: a.tenantId, cityKey: "sao paulo", listingType: "sale", maxPrice: 900000 });
    expect(row.consentAt).toBeInstanceOf(Date);
    expect(row.consentSource).toMatchObject({ via: "api", site: siteA.domain, userAgent: "Firefox", page: `http://${siteA.domain}:3000/en/imoveis` });

    await listing(a); // a matching listing before confirmation: nothing but the confirmation goes out
    await runJobs();
    const mails = mailsTo((body.contact as { email: string }).email);
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.subject).toBe("Confirm your listing alert — Imobiliária Alfa");
    expect(mails[0].parsed.text).toContain(`http://${siteA.domain}:3000/en/alertas/confirmar/${res.body.id}.`);
    expect(mails[0].parsed.from?.value[0]).toEqual({ name: "Imobiliária Alfa", address: "alertas@crm.test" });
  });
});

describe("alerts", () => {
  it("after confirmation, a new matching listing sends a real e-mail with one-click unsubscribe; never twice, again on a lower price", async () => {
    const { id, email } = await confirmedSearch();
    expect(mailsTo(email)).toHaveLength(1);
    await listing(a, { price: "950000" }); // above the maximum
    await listing(a, { city: "Campinas" }); // another city
    await listing(a, { bedrooms: 1 }); // too few bedrooms
    const hit = await listing(a, { title: "Apartamento novo em Pinheiros", price: "880000" });
    await runJobs();
    let mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    const alert = mails[1];
    expect(alert.parsed.subject).toBe("Novo imóvel para a sua busca — Imobiliária Alfa");
    expect(alert.parsed.text).toContain("Apartamento novo em Pinheiros");
    expect(alert.parsed.text).toContain("R$ 880.000");
    expect(alert.parsed.text).toContain(`/imovel/${hit.listingCode}`);
    expect(alert.parsed.text).not.toContain("Campinas");
    const raw = String(alert.raw).replace(/\r\n[ \t]+/g, " ");
    const unsubscribe = /List-Unsubscribe: <([^>]+)>/.exec(raw)?.[1] ?? "";
    expect(unsubscribe).toContain(`/alertas/sair/${id}.`);
    expect(raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(alert.parsed.html).toContain("Apartamento novo em Pinheiros");

    // The same listing edited (no price fall): no second alert, even after the hour.
    await patch(a, hit.id, { title: "Apartamento reformado em Pinheiros" });
    await (await getDb())
      .update(savedSearches)
      .set({ lastAlertAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(savedSearches.id, id));
    await runJobs();
    expect(mailsTo(email)).toHaveLength(2);

    // Its price falls: alerted again (the cap has passed).
    await patch(a, hit.id, { price: "820000" });
    await runJobs();
    mails = mailsTo(email);
    expect(mails).toHaveLength(3);
    expect(mails[2].parsed.text).toContain("Baixou de preço");
    expect(mails[2].parsed.text).toContain("R$ 820.000");
  });

  it("sends at most one instant alert an hour: what matches meanwhile waits and goes together", async () => {
    const { id, email } = await confirmedSearch();
    await listing(a, { title: "Primeiro" });
    await runJobs();
    expect(mailsTo(email)).toHaveLength(2);
    await listing(a, { title: "Segundo" });
    await listing(a, { title: "Terceiro" });
    await runJobs();
    expect(mailsTo(email)).toHaveLength(2);
    await (await getDb())
      .update(savedSearches)
      .set({ lastAlertAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(savedSearches.id, id));
    await runJobs();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(3);
    expect(mails[2].parsed.subject).toBe("2 imóveis para a sua busca — Imobiliária Alfa");
    expect(mails[2].parsed.text).toContain("Segundo");
    expect(mails[2].parsed.text).toContain("Terceiro");
  });

  it("a run of the messages job stops after its rounds and says more are due; the next run sends the rest", async () => {
    // A city no other test's search names, so only these three are due.
    const inRibeirao = () => valid({ filters: { ...filters, city: "Ribeirão Preto" } });
    const searches = [await confirmedSearch(inRibeirao()), await confirmedSearch(inRibeirao()), await confirmedSearch(inRibeirao())];
    await listing(a, { title: "Para três buscas", city: "Ribeirão Preto" });
    const db = await getDb();
    while (await matchSavedSearches(db));
    // One round of two alerts: two of the three go out, and the run says more are due.
    expect(await sendSavedSearchMessages(db, undefined, { rounds: 1, batch: 2 })).toEqual({ sent: 2, more: true });
    const alerted = () => searches.filter((s) => mailsTo(s.email).some((m) => (m.parsed.text ?? "").includes("Para três buscas"))).length;
    expect(alerted()).toBe(2);
    expect(await sendSavedSearchMessages(db, undefined, { rounds: 1, batch: 2 })).toEqual({ sent: 1, more: false });
    expect(alerted()).toBe(3);
  });

  it("a listing published (back on air) alerts; a draft does not", async () => {
    const { email } = await confirmedSearch();
    const draft = await listing(a, { stage: "draft", title: "Rascunho" });
    await runJobs();
    expect(mailsTo(email)).toHaveLength(1);
    await patch(a, draft.id, { stage: "active" });
    await runJobs();
    expect(mailsTo(email)).toHaveLength(2);
    expect(mailsTo(email)[1].parsed.text).toContain("Rascunho");
  });

  it("unsubscribe (the link or the one-click POST) stops alerts at once", async () => {
    const { id, email } = await confirmedSearch();
    await listing(a, { title: "Antes de sair" });
    await runJobs();
    const raw = String(mailsTo(email).at(-1)!.raw).replace(/\r\n[ \t]+/g, " ");
    const token = /\/alertas\/sair\/([^>\s]+)>/.exec(raw)?.[1] ?? "";
    // A confirmation token cannot unsubscribe, nor another tenant's site.
    expect(await unsubscribeSavedSearch(await getDb(), token.replace(/\.[^.]+$/, ".x"), a.tenantId)).toBeNull();
    expect(await unsubscribeSavedSearch(await getDb(), token, b.tenantId)).toBeNull();
    // A listing within the hour of the last alert waits (the hourly cap); leaving drops what waits, not what was sent.
    await listing(a, { title: "Na espera" });
    await runJobs();
    const hitsOf = async () =>
      rowsOf<{ sent: boolean }>(
        await (await getDb()).execute(sql`select sent_at is not null as sent from saved_search_hits where saved_search_id = ${id}::uuid`),
      );
    expect((await hitsOf()).filter((h) => !h.sent)).toHaveLength(1);
    expect((await unsubscribeSavedSearch(await getDb(), token, a.tenantId))?.row.status).toBe("unsubscribed");
    expect(await hitsOf()).toEqual([{ sent: true }]);
    await (await getDb()).update(savedSearches).set({ lastAlertAt: null }).where(eq(savedSearches.id, id));
    await listing(a, { title: "Depois de sair" });
    await runJobs();
    expect(
      mailsTo(email)
        .map((m) => m.parsed.text)
        .join(),
    ).not.toContain("Depois de sair");
  });
});

describe("the links' pages", () => {
  const open = (method: "GET" | "POST", action: string, token: string, body?: string) =>
    (method === "GET" ? linkRoute.GET : linkRoute.POST)(new Request(`http://${siteA.domain}/alertas/${action}/${token}`, { method, body }), {
      params: Promise.resolve({ site: `d~${siteA.domain}`, locale: "pt-BR", action, token }),
    });
  const statusOf = async (id: string) => (await (await getDb()).select().from(savedSearches).where(eq(savedSearches.id, id)))[0].status;

  it("opening the confirmation link only asks (a mail scanner confirms nothing); its button's POST confirms", async () => {
    const body = valid();
    const res = await save(siteA.id, body, { origin: `http://${siteA.domain}:3000` });
    expect(res.status).toBe(201);
    await runJobs();
    const token = tokenOf(mailsTo(body.contact.email)[0].parsed.text ?? "", "confirmar");
    for (let i = 0; i < 3; i++) {
      const page = await open("GET", "confirmar", token);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Confirme seu alerta");
      expect(html).toMatch(/<form [^>]*method="post"[^>]*>\s*<button class="btn" type="submit">Confirmar alerta<\/button>/);
      expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    }
    expect(await statusOf(res.body.id)).toBe("pending");
    expect(
      (
        await (
          await getDb()
        )
          .select()
          .from(inboundLeads)
          .where(eq(inboundLeads.originLeadId, `saved-search:${res.body.id}`))
      ).length,
    ).toBe(0);
    expect((await open("GET", "confirmar", token.replace(/\.[^.]+$/, ".x"))).status).toBe(404);

    const done = await open("POST", "confirmar", token);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Alerta confirmado");
    expect(await statusOf(res.body.id)).toBe("active");
    expect(
      (
        await (
          await getDb()
        )
          .select()
          .from(inboundLeads)
          .where(eq(inboundLeads.originLeadId, `saved-search:${res.body.id}`))
      ).length,
    ).toBe(1);
    // Opened again later: it says so, with no button.
    const again = await (await open("GET", "confirmar", token)).text();
    expect(again).toContain("Alerta confirmado");
    expect(again).not.toContain("<form");
  });

  it("the unsubscribe link takes effect when opened; the mail client's one-click POST answers 204", async () => {
    const one = await confirmedSearch();
    const two = await confirmedSearch();
    const tokenFor = (id: string, purpose: "confirm" | "unsubscribe" = "unsubscribe") =>
      alertLink({ id, linkBase: "", locale: "pt-BR" }, purpose).split("/").at(-1)!;
    const page = await open("GET", "sair", tokenFor(one.id));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Alerta cancelado");
    expect(await statusOf(one.id)).toBe("unsubscribed");
    const click = await open("POST", "sair", tokenFor(two.id), "List-Unsubscribe=One-Click");
    expect(click.status).toBe(204);
    expect(await statusOf(two.id)).toBe("unsubscribed");
    expect((await open("POST", "sair", `${two.id}.x`)).status).toBe(404);
    // A confirmation token does not unsubscribe, and an unsubscribed search is not confirmed again by its old link.
    const three = await confirmedSearch();
    expect((await open("POST", "sair", tokenFor(three.id, "confirm"))).status).toBe(404);
    expect(await statusOf(three.id)).toBe("active");
    const back = await open("POST", "confirmar", tokenFor(one.id, "confirm"));
    expect(await back.text()).toContain("Alerta cancelado");
    expect(await statusOf(one.id)).toBe("unsubscribed");
  });
});

describe("for members", () => {
  it("the confirmed search is a lead of the site's channel with a deal; members list it, another tenant sees nothing", async () => {
    const visitorId = randomUUID();
    const { id } = await confirmedSearch(valid({ visitorId }));
    const db = await getDb();
    const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
    expect(row.inboundLeadId).toBeTruthy();
    await processLeads(db, [row.inboundLeadId!]);
    const [lead] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, row.inboundLeadId!));
    expect(lead.status).toBe("processed");
    expect(lead.lead).toMatchObject({ source: "saved_search", businessType: "sale", visitor: { siteId: siteA.id, visitorId } });
    const dealId = lead.dealIds[0];

    const res = await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", { key: a.key, query: { dealId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ id, status: "active", dealId, filters: { ...filters, city: "Sao Paulo" }, channel: "email" });
    expect(res.body.items[0].consent.source.site).toBe(siteA.domain);

    // The deal shows what the buyer asked for; another tenant's key does not see the deal.
    const deal = await call(dealRoute.GET, "GET", `/api/v1/crm/deals/${dealId}`, { key: a.key, params: { id: dealId } });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect(deal.body.savedSearches).toEqual([
      {
        id,
        siteId: siteA.id,
        filters: { ...filters, city: "Sao Paulo" },
        channel: "email",
        frequency: "instant",
        status: "active",
        createdAt: row.createdAt.toISOString(),
      },
    ]);
    expect((await call(dealRoute.GET, "GET", `/api/v1/crm/deals/${dealId}`, { key: b.key, params: { id: dealId } })).status).toBe(404);
    await unsubscribeSavedSearch(db, alertLink(row, "unsubscribe").split("/").at(-1)!, a.tenantId);
    const after = await call(dealRoute.GET, "GET", `/api/v1/crm/deals/${dealId}`, { key: a.key, params: { id: dealId } });
    expect(after.body.savedSearches.map((s: { status: string }) => s.status)).toEqual(["unsubscribed"]);

    const all = await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", { key: a.key, query: { pageSize: "100" } });
    expect(all.body.total).toBeGreaterThan(1);
    const other = await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", { key: b.key, query: { pageSize: "100" } });
    expect(other.body).toMatchObject({ items: [], total: 0 });
    // A broker sees only the searches of its own deals.
    const broker = await makeMember(a, "broker");
    const mine = await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", { key: broker.key });
    expect(mine.body.items.every((s: { dealId: string | null }) => s.dealId !== null)).toBe(true);
    expect((await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", { key: a.key, query: { status: "paused" } })).status).toBe(400);
    expect((await call(listRoute.GET, "GET", "/api/v1/crm/saved-searches", {})).status).toBe(401);
  });

  it("another tenant's listing never alerts a search of this tenant", async () => {
    const body = valid();
    const res = await save(siteB.id, body);
    expect(res.status).toBe(201);
    await runJobs();
    const token = tokenOf(mailsTo(body.contact.email)[0].parsed.text ?? "", "confirmar");
    expect(await confirmSavedSearch(await getDb(), token, a.tenantId)).toBeNull(); // not through tenant A's site
    await confirmSavedSearch(await getDb(), token, b.tenantId);
    await listing(a, { title: "Do outro tenant" });
    await runJobs();
    expect(mailsTo(body.contact.email)).toHaveLength(1);
    await (await getDb()).execute(sql`select 1`);
  });
});
