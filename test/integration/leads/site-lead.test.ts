/**
 * A rendered site's lead form: the lead goes through the channel lead intake of the site's
 * marketing channel (stored as that channel's inbound lead before the visitor is told), never
 * another tenant's, with clear refusals.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import { getDb } from "../../../db/client";
import { inboundLeads, sites, type SiteRow } from "../../../db/schema";
import { DomainError } from "../../../lib/errors/domain-errors";
import { receiveSiteLead, siteChannel } from "../../../lib/leads/inbound/site-lead";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let a: TestTenant;
let b: TestTenant;
let siteA: SiteRow;
let siteB: SiteRow;
let portal: string;
let website: string;
let websiteB: string;

const row = async (id: string) => (await (await getDb()).select().from(sites).where(eq(sites.id, id)))[0];
const channel = async (t: TestTenant, body: Record<string, unknown>) => {
  const res = await call(channelsRoute.POST, "POST", "/api/v1/settings/marketing-channels", { key: t.key, body });
  expect(res.status).toBe(201);
  return res.body.id as string;
};

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  siteA = await row((await makeSite(a)).id);
  siteB = await row((await makeSite(b)).id);
  portal = await channel(a, { name: "Portal", kind: "portal" });
  website = await channel(a, { name: "Site", kind: "website" });
  websiteB = await channel(b, { name: "Site B", kind: "website" });
});

describe("site leads", () => {
  it("go to the tenant's website channel, stored with the site's landing page", async () => {
    const db = await getDb();
    expect((await siteChannel(db, siteA))?.id).toBe(website);
    const r = await receiveSiteLead(
      db,
      siteA,
      { name: "Maria Visitante", email: "maria@example.com", phone: "(11) 98765-4321", message: "Quero visitar", landingPage: "/en/imovel/AP1/x" },
      { userAgent: "test" },
    );
    expect(r.status).toBe("stored");
    const [lead] = await db
      .select()
      .from(inboundLeads)
      .where(eq(inboundLeads.id, (r as { leadId: string }).leadId));
    expect(lead).toMatchObject({ tenantId: a.tenantId, channelId: website, destination: "deal" });
    expect(lead.lead).toMatchObject({
      contactName: "Maria Visitante",
      contactEmail: "maria@example.com",
      contactPhone: "+5511987654321",
      source: "site",
      leadType: "contact",
    });
    expect((lead.lead as any).attribution.landingPage).toBe(`https://${siteA.domain}/en/imovel/AP1/x`);
    // Another tenant's site has its own channel.
    expect((await siteChannel(db, siteB))?.id).toBe(websiteB);
  });

  it("refuse a lead without a way to answer, or with a bad e-mail, storing nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(inboundLeads).where(eq(inboundLeads.channelId, website))).length;
    for (const bad of [{ name: "Sem contato" }, { name: "X", email: "not-an-email" }, { email: "x@example.com" }]) {
      await expect(receiveSiteLead(db, siteA, bad)).rejects.toThrow();
    }
    await expect(receiveSiteLead(db, siteA, { name: "Sem contato" })).rejects.toMatchObject({ kind: "invalid", code: "contact_missing" });
    expect((await db.select().from(inboundLeads).where(eq(inboundLeads.channelId, website))).length).toBe(before);
  });

  it("clean a NUL or lone surrogate from any field instead of failing (it used to be a 500)", async () => {
    const db = await getDb();
    const r = await receiveSiteLead(db, siteA, {
      name: "Ana\u0000 Souza",
      email: "ana@example.com",
      phone: "11 98765\u0000-4321",
      message: "Oi \ud800",
      landingPage: "/imovel/AP1\u0000",
    });
    expect(r.status).toBe("stored");
    const [lead] = await db
      .select()
      .from(inboundLeads)
      .where(eq(inboundLeads.id, (r as { leadId: string }).leadId));
    expect(lead.lead).toMatchObject({ contactName: "Ana Souza", contactPhone: "+5511987654321" });
  });

  it("drop a bot's lead (honeypot filled) quietly", async () => {
    const db = await getDb();
    expect(await receiveSiteLead(db, siteA, { name: "Bot", email: "bot@example.com", website: "http://spam.example" })).toEqual({ status: "dropped" });
  });

  it("say so when the tenant has no website channel", async () => {
    const c = await makeTenant();
    const s = await row((await makeSite(c)).id);
    await channel(c, { name: "Only a portal", kind: "portal" });
    const err = await receiveSiteLead(await getDb(), s, { name: "Ana", email: "ana@example.com" }).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: "unavailable", code: "site_channel_missing" });
  });

  it("prefer the website channel that names the site", async () => {
    expect(portal).toBeTruthy();
    const named = await channel(a, { name: "Site novo", kind: "website" });
    const db = await getDb();
    const { marketingChannelInstances } = await import("../../../db/schema");
    await db
      .update(marketingChannelInstances)
      .set({ settings: { siteId: siteA.id } })
      .where(eq(marketingChannelInstances.id, named));
    expect((await siteChannel(db, siteA))?.id).toBe(named);
  });
});
