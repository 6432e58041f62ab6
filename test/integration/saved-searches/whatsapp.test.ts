/**
 * WhatsApp alerts through the tenant's own WhatsApp channel, on a fake WAHA gateway (a real HTTP
 * server on 127.0.0.1): the confirmation and the instant alert reach the visitor's number, with the
 * same gates as a member's send, so a number that opted out gets nothing and the search keeps why.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "../../../app/api/sites/[siteId]/saved-searches/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as optOutsRoute from "../../../app/api/v1/settings/messaging/opt-outs/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { savedSearchHits, savedSearches } from "../../../db/schema";
import { sendSavedSearchMessages } from "../../../lib/saved-searches/deliver";
import { confirmSavedSearch } from "../../../lib/saved-searches/links";
import { matchSavedSearches } from "../../../lib/saved-searches/match";
import { startFakeWaha } from "../../fakes/waha-gateway";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel } from "../../helpers/messaging";
import { makeSite } from "../../helpers/sites";

let gw: Awaited<ReturnType<typeof startFakeWaha>>;
let a: TestTenant;
let site: { id: string; domain: string };

beforeAll(async () => {
  gw = await startFakeWaha();
  a = await makeTenant("Imobiliária Zap");
  site = await makeSite(a);
  await makeWahaChannel(a, gw);
  const res = await call(channelsRoute.POST, "POST", "/x", { key: a.key, body: { name: "Site", kind: "website" } });
  expect(res.status).toBe(201);
});
afterAll(async () => gw?.close());

let clients = 0;
const chatOf = (phone: string) => `${phone.replace(/\D/g, "")}@c.us`;
const sentTo = (phone: string) => gw.state.sent.filter((m) => m.chatId === chatOf(phone));

async function runJobs() {
  const db = await getDb();
  while (await matchSavedSearches(db));
  await sendSavedSearchMessages(db);
}

/** A WhatsApp search saved on the site and confirmed through the link its confirmation carried. */
async function confirmedWhatsappSearch(phone: string) {
  const res = await call(createRoute.POST, "POST", `/api/sites/${site.id}/saved-searches`, {
    params: { siteId: site.id },
    body: {
      filters: { type: "sale", city: "Recife", maxPrice: 700000 },
      contact: { name: "Rita", phone },
      channel: "whatsapp",
      frequency: "instant",
      consent: true,
      locale: "pt-BR",
    },
    headers: { "x-crm-client-address": `10.7.0.${++clients}`, origin: `http://${site.domain}:3000` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await runJobs();
  const [confirmation] = sentTo(phone);
  expect(confirmation?.text).toMatch(/alertas\/confirmar\//);
  const token = /\/alertas\/confirmar\/([^\s"<]+)/.exec(confirmation.text)![1];
  expect((await confirmSavedSearch(await getDb(), token, a.tenantId))?.row.status).toBe("active");
  return res.body.id as string;
}

async function listing(title: string) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: a.key,
    body: {
      property: { type: "apartment", bedrooms: 2, totalArea: "70" },
      location: { city: "Recife", neighborhood: "Boa Viagem", state: "PE" },
      listings: [{ title, type: "sale", price: "650000", stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
}

describe("WhatsApp saved-search alerts", () => {
  it("send the instant alert through the tenant's WhatsApp channel; an opted-out number gets nothing", async () => {
    const open = "+55 81 98765-0001";
    const optedOut = "+55 81 98765-0002";
    await confirmedWhatsappSearch(open);
    const blockedId = await confirmedWhatsappSearch(optedOut);
    // The second visitor then asks the agency to stop writing (an opt-out, as a member records it).
    const add = await call(optOutsRoute.POST, "POST", "/x", { key: a.key, body: { phone: "81987650002" } });
    expect(add.status).toBeLessThan(300);

    await listing("Apartamento em Boa Viagem com vista");
    await runJobs();

    const alerts = sentTo(open).slice(1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain("Apartamento em Boa Viagem com vista");
    expect(alerts[0].text).toMatch(/\/alertas\/sair\//);
    expect(sentTo(optedOut)).toHaveLength(1); // the confirmation only, before the opt-out

    // The blocked alert is not marked sent: its hit waits, the search says why.
    const db = await getDb();
    const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, blockedId));
    expect(row.failures).toBeGreaterThan(0);
    expect(row.lastError).toMatch(/opt/i);
    const hits = await db.select().from(savedSearchHits).where(eq(savedSearchHits.savedSearchId, blockedId));
    expect(hits.map((h) => h.sentAt)).toEqual([null]);
  });
});
