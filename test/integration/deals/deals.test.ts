import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as channelRoute from "../../../app/api/v1/settings/marketing-channels/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { contacts, deals, events } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let broker: Awaited<ReturnType<typeof makeMember>>;

const buyer = (over: Record<string, unknown> = {}) => ({ name: "Paula Lima", phone: "+5511912345678", role: "buyer", ...over });
const dealBody = (over: Record<string, unknown> = {}) => ({ title: "Compra apto Pinheiros", dealType: "sale", contacts: [buyer()], ...over });
const post = (body: unknown, key = t.key) => call(dealsRoute.POST, "POST", "/api/v1/crm/deals", { key, body });
const get = (id: string, key = t.key) => call(dealRoute.GET, "GET", `/api/v1/crm/deals/${id}`, { key, params: { id } });
const patch = (id: string, body: unknown, key = t.key) => call(dealRoute.PATCH, "PATCH", "/x", { key, params: { id }, body });
const list = (query: Record<string, string> = {}, key = t.key) => call(dealsRoute.GET, "GET", "/x", { key, query });

beforeAll(async () => {
  t = await makeTenant();
  broker = await makeMember(t, "broker", "broad", { phone: "+5511988887777" });
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", {
    key: t.key,
    body: {
      customFields: [
        { key: "origem", label: "Origem", type: "select", options: ["portal", "indicacao", "site"] },
        { key: "urgente", label: "Urgente", type: "boolean" },
        { key: "prazo", label: "Prazo", type: "date" },
        { key: "renda", label: "Renda", type: "number" },
      ],
    },
  });
  expect(res.status).toBe(200);
});

describe("POST /deals", () => {
  it("creates with defaults, answers the short form and records deal.created with the deal row", async () => {
    const res = await post(dealBody({ amount: "850000", custom: { maxPrice: 900000, locations: ["Pinheiros"], origem: "portal" } }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["createdAt", "currency", "dealType", "id", "stage", "status", "title"]);
    expect(res.body).toMatchObject({ stage: "draft", status: "open", currency: "BRL", dealType: "sale" });
    const full = await get(res.body.id);
    expect(full.body).toMatchObject({ amount: "850000.00", assignedToId: t.ownerId, custom: { maxPrice: 900000, locations: ["Pinheiros"], origem: "portal" } });
    expect(full.body.contacts[0]).toMatchObject({ name: "Paula Lima", phone: "+5511912345678", role: "buyer", id: expect.any(String) });
    expect(full.body).not.toHaveProperty("assignedToEmail");
    const db = await getDb();
    const [ev] = await db.select().from(events).where(eq(events.entityId, res.body.id));
    expect(ev.eventName).toBe("deal.created");
    expect(ev.entityType).toBe("deal");
    const entity = (ev.data as any).entity;
    for (const f of [
      "id",
      "title",
      "dealType",
      "stage",
      "status",
      "currency",
      "amount",
      "marketingChannelInstanceId",
      "customData",
      "contacts",
      "createdAt",
      "updatedAt",
    ]) {
      expect(entity).toHaveProperty(f);
    }
    expect(entity.customData.origem).toBe("portal");
  });

  it("normalises contact phones, checks CPF, and reuses a contact by phone or e-mail", async () => {
    const a = await post(dealBody({ contacts: [buyer({ phone: "(11) 91234-5678", cpf: "529.982.247-25" })] }));
    const b = await post(dealBody({ contacts: [buyer({ name: "Paula L.", phone: "011 91234 5678", email: "paula@example.com" })] }));
    const c = await post(dealBody({ contacts: [{ name: "Paula", email: "PAULA@example.com", role: "buyer" }] }));
    const ids = await Promise.all([a, b, c].map(async (r) => (await get(r.body.id)).body.contacts[0].id));
    expect(new Set(ids).size).toBe(1);
    const db = await getDb();
    const [row] = await db.select().from(contacts).where(eq(contacts.id, ids[0]));
    expect(row).toMatchObject({ phone: "+5511912345678", email: "paula@example.com", cpf: "52998224725" });
  });

  it("refuses bad input with a 400 naming the field and creates nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(deals)).length;
    const cases: [unknown, RegExp][] = [
      [dealBody({ contacts: [] }), /contacts/],
      [dealBody({ contacts: [{ name: "X", role: "buyer" }] }), /body field `contacts\.0\.email`: needs an email or a phone/],
      [dealBody({ contacts: [buyer({ role: "friend" })] }), /contacts\.0\.role/],
      [dealBody({ contacts: [buyer({ phone: "123" })] }), /contacts\.0\.phone/],
      [dealBody({ contacts: [buyer({ cpf: "123.456.789-00" })] }), /contacts\.0\.cpf/],
      [dealBody({ dealType: "lease" }), /dealType/],
      [dealBody({ stage: "sonho" }), /stage: 'sonho'/],
      [dealBody({ status: "pending" }), /status/],
      [dealBody({ amount: 10 }), /amount/],
      [dealBody({ title: "" }), /title/],
      [dealBody({ custom: { maxPrice: "muito" } }), /custom\.maxPrice/],
      [dealBody({ custom: { locations: "Pinheiros" } }), /custom\.locations/],
      [dealBody({ custom: { consentimento: true } }), /custom\.consentimento: 'consentimento' is not a custom field/],
      [dealBody({ custom: { origem: "tv" } }), /custom\.origem: must be one of/],
      [dealBody({ custom: { urgente: "sim" } }), /custom\.urgente/],
      [dealBody({ custom: { prazo: "31/12/2026" } }), /custom\.prazo/],
      [dealBody({ marketingChannelInstanceId: "00000000-0000-4000-8000-000000000000" }), /marketingChannelInstanceId/],
      [dealBody({ assignedToId: "00000000-0000-4000-8000-000000000000" }), /assignedToId/],
      [dealBody({ assignedToEmail: "nobody@example.com" }), /assignedToEmail/],
      [dealBody({ assignedToPhone: "+5511900000000" }), /assignedToPhone/],
      [dealBody({ extra: 1 }), /extra/],
      [dealBody({ custom: { toString: 1 } }), /custom\.toString/],
      [dealBody({ custom: { constructor: "x" } }), /custom\.constructor/],
    ];
    for (const [body, msg] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    expect((await db.select().from(deals)).length).toBe(before);
  });
});

describe("assignment", () => {
  it("resolves by id, then e-mail, then phone in any format, among active members only", async () => {
    const byPhone = await post(dealBody({ assignedToPhone: "(11) 98888-7777" }));
    expect((await get(byPhone.body.id)).body.assignedToId).toBe(broker.userId);
    const byEmail = await post(dealBody({ assignedToEmail: broker.email.toUpperCase(), assignedToPhone: "+5511900000000" }));
    expect((await get(byEmail.body.id)).body.assignedToId).toBe(broker.userId);
    const byId = await post(dealBody({ assignedToId: t.ownerId, assignedToEmail: broker.email }));
    expect((await get(byId.body.id)).body.assignedToId).toBe(t.ownerId);
  });

  it("refuses an inactive broker's e-mail, leaves no deal behind, and never stores the input-only fields", async () => {
    const inactive = await makeMember(t, "broker", "broad", { active: false });
    const db = await getDb();
    const before = (await db.select().from(deals)).length;
    const res = await post(dealBody({ title: "Refused", assignedToEmail: inactive.email }));
    expect(res.status).toBe(400);
    expect((await db.select().from(deals)).length).toBe(before);
    const ok = await post(dealBody({ assignedToEmail: broker.email }));
    const [row] = await db.select().from(deals).where(eq(deals.id, ok.body.id));
    expect(JSON.stringify(row)).not.toContain(broker.email);
  });

  it("distributes deals of a marketing channel round robin over its active queue, emitting distribution.assigned", async () => {
    const b2 = await makeMember(t, "broker");
    const b3 = await makeMember(t, "broker");
    const ch = await call(channelsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Portal", kind: "portal", queue: [broker.userId, b2.userId, b3.userId] },
    });
    expect(ch.status).toBe(201);
    const assigned: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(dealBody({ marketingChannelInstanceId: ch.body.id, utmSource: "zap" }));
      assigned.push((await get(res.body.id)).body.assignedToId);
    }
    expect(assigned).toEqual([broker.userId, b2.userId, b3.userId, broker.userId]);
    const explicit = await post(dealBody({ marketingChannelInstanceId: ch.body.id, assignedToId: b3.userId }));
    expect((await get(explicit.body.id)).body.assignedToId).toBe(b3.userId);
    const off = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: ch.body.id }, body: { active: false } });
    expect(off.status).toBe(200);
    const refused = await post(dealBody({ marketingChannelInstanceId: ch.body.id }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/inactive/);
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: ch.body.id }, body: {} })).status).toBe(400);
    const db = await getDb();
    const dist = await db.select().from(events).where(eq(events.eventName, "distribution.assigned"));
    expect(dist).toHaveLength(4);
    expect(dist[0].data).toMatchObject({ assignedToId: broker.userId, marketingChannelInstanceId: ch.body.id });
  });
});

describe("custom data", () => {
  it("keeps only listing UUIDs of the tenant in leadListings, dropping listing codes", async () => {
    const p = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() });
    const listingId = p.body.listings[0].id;
    const res = await post(dealBody({ custom: { leadListings: [{ listingId }, { listingId: "AP0001" }] } }));
    expect(res.status).toBe(201);
    expect((await get(res.body.id)).body.custom.leadListings).toEqual([{ listingId }]);
  });

  it("filters the list by custom keys (two at once) and rejects malformed customFilters", async () => {
    await post(dealBody({ title: "F1", custom: { origem: "site", urgente: true } }));
    await post(dealBody({ title: "F2", custom: { origem: "site", urgente: false } }));
    await post(dealBody({ title: "F3", custom: { origem: "indicacao", urgente: true } }));
    const res = await list({ customFilters: JSON.stringify({ origem: "site", urgente: true }) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((d: any) => d.title)).toEqual(["F1"]);
    expect(res.body.total).toBe(1);
    expect(res.body.items[0].contacts).toHaveLength(1);
    for (const bad of ["{origem:", "[1]", '{"a":{"b":1}}', '"x"']) {
      const r = await list({ customFilters: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.message).toMatch(/customFilters/);
    }
  });
});

describe("GET /deals", () => {
  it("filters by type, stage, status, assignee and channel, with paging limits", async () => {
    await post(dealBody({ title: "Aluguel", dealType: "rental", stage: "visita", assignedToId: broker.userId }));
    const rentals = await list({ dealType: "rental" });
    expect(rentals.body.items.every((d: any) => d.dealType === "rental")).toBe(true);
    expect((await list({ stage: "visita" })).body.items.map((d: any) => d.title)).toContain("Aluguel");
    expect((await list({ assignedToId: broker.userId })).body.items.every((d: any) => d.assignedToId === broker.userId)).toBe(true);
    expect((await list({ status: "won" })).body.total).toBe(0);
    expect((await list({ pageSize: "101" })).status).toBe(400);
    expect((await list({ status: "maybe" })).status).toBe(400);
    expect((await list({ assignedToId: "x" })).status).toBe(400);
    const page = await list({ pageSize: "2" });
    expect(page.body).toMatchObject({ page: 1, pageSize: 2 });
    expect(page.body.items).toHaveLength(2);
  });
});

describe("PATCH and DELETE /deals/{id}", () => {
  it("updates stage and status, merges custom, records deal.updated with old", async () => {
    const { body: created } = await post(dealBody({ custom: { origem: "portal", renda: 12000 } }));
    const res = await patch(created.id, {
      id: created.id,
      data: { stage: "ganho", custom: { renda: null, urgente: true }, assignedToPhone: "+55 11 98888-7777" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stage: "ganho", status: "won", assignedToId: broker.userId, custom: { origem: "portal", urgente: true } });
    expect(res.body.custom).not.toHaveProperty("renda");
    const db = await getDb();
    const evs = await db.select().from(events).where(eq(events.entityId, created.id)).orderBy(events.seq);
    expect(evs.map((e) => e.eventName)).toEqual(["deal.created", "deal.updated"]);
    expect((evs[1].old as any).stage).toBe("draft");
    expect((evs[1].data as any).entity.stage).toBe("ganho");
    const lost = await patch(created.id, { id: created.id, data: { stage: "perdido", status: "open" } });
    expect(lost.body).toMatchObject({ stage: "perdido", status: "open" });
    const won = await patch(created.id, { id: created.id, data: { stage: "ganho" } });
    expect(won.body.status).toBe("won");
    const reopened = await patch(created.id, { id: created.id, data: { stage: "proposta" } });
    expect(reopened.body).toMatchObject({ stage: "proposta", status: "open" });
  });

  it("writes nothing for a PATCH that changes nothing", async () => {
    const { body: created } = await post(dealBody({ custom: { origem: "site" } }));
    const before = await get(created.id);
    const res = await patch(created.id, { id: created.id, data: { title: before.body.title, custom: { origem: "site" }, contacts: [buyer()] } });
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBe(before.body.updatedAt);
    const db = await getDb();
    expect((await db.select().from(events).where(eq(events.entityId, created.id))).map((e) => e.eventName)).toEqual(["deal.created"]);
  });

  it("refuses an id that differs from the path, bad data and failed assignments, changing nothing", async () => {
    const { body: created } = await post(dealBody());
    const other = "00000000-0000-4000-8000-000000000000";
    const mismatch = await patch(created.id, { id: other, data: { title: "x" } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toMatch(/^id:/);
    for (const body of [
      { data: { title: "x" } },
      { id: created.id },
      { id: created.id, data: {} },
      { id: created.id, data: { stage: "x" } },
      { id: created.id, data: { title: "Novo", assignedToEmail: "none@example.com" } },
    ]) {
      const r = await patch(created.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await get(created.id)).body.title).toBe("Compra apto Pinheiros");
  });

  it("replaces contacts when sent", async () => {
    const { body: created } = await post(dealBody());
    const res = await patch(created.id, { id: created.id, data: { contacts: [{ name: "Rui", email: "rui@example.com", role: "seller" }, buyer()] } });
    expect(res.body.contacts.map((c: any) => c.role)).toEqual(["seller", "buyer"]);
  });

  it("deletes with deal.deleted; then 404", async () => {
    const { body: created } = await post(dealBody());
    const del = await call(dealRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: created.id } });
    expect(del.status).toBe(200);
    expect((await get(created.id)).status).toBe(404);
    const db = await getDb();
    const evs = await db.select().from(events).where(eq(events.entityId, created.id)).orderBy(events.seq);
    expect(evs.map((e) => e.eventName)).toEqual(["deal.created", "deal.deleted"]);
  });
});

describe("restricted keys and tenant isolation", () => {
  it("a restricted key sees and changes only deals assigned to or created by its member", async () => {
    const r = await makeMember(t, "broker", "restricted");
    const mine = await post(dealBody({ title: "Meu" }), r.key);
    const assignedToMe = await post(dealBody({ title: "Atribuído", assignedToId: r.userId }));
    const notMine = await post(dealBody({ title: "Outro" }));
    const res = await list({}, r.key);
    expect(res.body.items.map((d: any) => d.title).sort()).toEqual(["Atribuído", "Meu"]);
    expect((await get(notMine.body.id, r.key)).status).toBe(404);
    expect((await patch(notMine.body.id, { id: notMine.body.id, data: { title: "x" } }, r.key)).status).toBe(404);
    expect((await patch(assignedToMe.body.id, { id: assignedToMe.body.id, data: { stage: "visita" } }, r.key)).status).toBe(200);
    expect((await get(mine.body.id, r.key)).status).toBe(200);
    expect((await post(dealBody({ assignedToId: broker.userId }), r.key)).status).toBe(403);
    expect((await patch(mine.body.id, { id: mine.body.id, data: { assignedToEmail: broker.email } }, r.key)).status).toBe(403);
  });

  it("another tenant's key reads, lists, updates and deletes nothing, and cannot reference this tenant's ids", async () => {
    const other = await makeTenant();
    const { body: created } = await post(dealBody());
    const ch = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Site" } });
    const p = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() });
    expect((await get(created.id, other.key)).status).toBe(404);
    expect((await patch(created.id, { id: created.id, data: { title: "hacked" } }, other.key)).status).toBe(404);
    expect((await call(dealRoute.DELETE, "DELETE", "/x", { key: other.key, params: { id: created.id } })).status).toBe(404);
    const theirs = await list({}, other.key);
    expect(theirs.body.total).toBe(0);
    expect((await list({ assignedToId: t.ownerId }, other.key)).body.total).toBe(0);
    for (const body of [
      dealBody({ assignedToId: t.ownerId }),
      dealBody({ assignedToEmail: broker.email }),
      dealBody({ marketingChannelInstanceId: ch.body.id }),
      dealBody({ custom: { leadListings: [{ listingId: p.body.listings[0].id }] } }),
    ]) {
      const res = await post(body, other.key);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await get(created.id)).body.title).toBe("Compra apto Pinheiros");
  });
});
