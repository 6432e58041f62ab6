import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as tenantsRoute from "../../../app/api/admin/tenants/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import * as keysRoute from "../../../app/api/v1/settings/api-keys/route";
import * as membersRoute from "../../../app/api/v1/settings/members/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
beforeAll(async () => {
  t = await makeTenant();
});

const eventNames = async (id: string) =>
  (await (await getDb()).select().from(events).where(eq(events.entityId, id)).orderBy(events.seq)).map((e) => e.eventName);

describe("input the database cannot store is a 400, never a 500", () => {
  it("refuses NUL characters in bodies and query strings, naming the field", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({ title: "a\u0000b" }) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/body field `property\.title`: must not contain NUL/);
    const deal = await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "x", dealType: "sale", contacts: [{ name: "A\u0000", email: "a@example.com", role: "buyer" }] },
    });
    expect(deal.status).toBe(400);
    expect((await call(listingsRoute.GET, "GET", "/x", { key: t.key, query: { stage: "a\u0000" } })).status).toBe(400);
    expect((await call(dealsRoute.GET, "GET", "/x", { key: t.key, query: { customFilters: '{"a":"\\u0000"}' } })).status).toBe(400);
  });

  it("refuses __proto__ keys instead of dropping them", async () => {
    const res = await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      rawBody: '{"title":"x","dealType":"sale","contacts":[{"name":"A","email":"a@example.com","role":"buyer"}],"custom":{"__proto__":{"x":1}}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/custom\.__proto__/);
  });

  it("refuses areas and prices beyond what the columns hold", async () => {
    for (const over of [{ totalArea: "999999999999" }, { usableArea: "99999999999.99" }]) {
      const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody(over) });
      expect(res.status, JSON.stringify(over)).toBe(400);
    }
    const price = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({}, [saleListing({ price: "9999999999999" })]) });
    expect(price.status).toBe(400);
  });

  it("derives unique slugs for long names, however many times they repeat", async () => {
    const name = "Imobiliária com um nome realmente muito comprido para caber num slug";
    const slugs = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(tenantsRoute.POST, "POST", "/x", {
        key: "test-operator-token-0123456789",
        body: { name, owner: { name: "O", email: `o${i}@example.com` } },
      });
      expect(res.status).toBe(201);
      slugs.push(res.body.slug);
    }
    expect(new Set(slugs).size).toBe(3);
  });
});

describe("privilege and no-op rules", () => {
  it("does not let an admin issue a key for an owner", async () => {
    const admin = await makeMember(t, "admin");
    const res = await call(keysRoute.POST, "POST", "/x", { key: admin.key, body: { userId: t.ownerId, name: "x" } });
    expect(res.status).toBe(403);
    const forSelf = await call(keysRoute.POST, "POST", "/x", { key: admin.key, body: { userId: admin.userId, name: "mine" } });
    expect(forSelf.status).toBe(201);
    expect((await call(membersRoute.POST, "POST", "/x", { key: forSelf.body.key, body: { name: "X", email: "x@example.com", role: "owner" } })).status).toBe(
      403,
    );
  });

  it("treats resent values as no change: no event for price '100' after '100.00', same translations, same property", async () => {
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { listingLanguages: ["pt-BR", "en"] } });
    const created = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: propertyBody({ media: [{ url: "/demo/a.svg" }] }, [saleListing({ price: "100", translations: { en: { title: "Flat" } } })]),
    });
    const l = created.body.listings[0];
    expect(l.price).toBe("100.00");
    await call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: l.id }, body: { price: "100" } });
    const same = { property: { totalArea: "120.5", media: [{ url: "/demo/a.svg" }] }, listings: [{ id: l.id, translations: { en: { title: "Flat" } } }] };
    const res = await call(propertyRoute.PATCH, "PATCH", "/x", { key: t.key, params: { propertyId: created.body.property.id }, body: same });
    expect(res.status).toBe(200);
    expect(await eventNames(l.id)).toEqual(["listing.created"]);
    expect(await eventNames(created.body.property.id)).toEqual(["property.created"]);
  });

  it("answers a deal PATCH that only completes a contact with the new data and an event", async () => {
    const d = await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "x", dealType: "sale", contacts: [{ name: "Bia", phone: "+5511955554444", role: "buyer" }] },
    });
    const res = await call(dealRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: d.body.id },
      body: { id: d.body.id, data: { contacts: [{ name: "Bia", phone: "+5511955554444", cpf: "529.982.247-25", role: "buyer" }] } },
    });
    expect(res.body.contacts[0].cpf).toBe("52998224725");
    expect(await eventNames(d.body.id)).toEqual(["deal.created", "deal.updated"]);
  });
});

describe("settings cannot orphan stored values", () => {
  it("refuses to remove a sub-status, a feature or a used custom field (or option)", async () => {
    const s = (await call(settingsRoute.GET, "GET", "/x", { key: t.key })).body;
    await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: propertyBody({ features: ["balcony"] }, [saleListing({ stage: "active", status: "reserved" })]),
    });
    const noReserved = s.listingWorkflow.stages.map((st: any) => (st.id === "active" ? { ...st, statuses: ["available"] } : st));
    const r1 = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { listingWorkflow: { ...s.listingWorkflow, stages: noReserved } } });
    expect(r1.status).toBe(409);
    expect(r1.body.error.message).toMatch(/status 'reserved'/);
    const r2 = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { propertyFeatures: s.propertyFeatures.filter((f: any) => f.id !== "balcony") },
    });
    expect(r2.status).toBe(409);

    const fields = [
      { key: "origem", label: "Origem", type: "select", options: ["site", "portal"] },
      { key: "renda", label: "Renda", type: "number" },
    ];
    expect((await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { customFields: fields } })).status).toBe(200);
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "x", dealType: "sale", contacts: [{ name: "A", email: "q@example.com", role: "buyer" }], custom: { origem: "site", renda: 5000 } },
    });
    for (const customFields of [[fields[0]], [fields[0], { ...fields[1], type: "text" }], [{ ...fields[0], options: ["portal"] }, fields[1]]]) {
      const r = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { customFields } });
      expect(r.status, JSON.stringify(customFields)).toBe(409);
    }
    const addOption = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { customFields: [{ ...fields[0], options: ["site", "portal", "tv"] }, fields[1]] },
    });
    expect(addOption.status).toBe(200);
    const dupOption = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { customFields: [{ ...fields[0], options: ["a", "a"] }] } });
    expect(dupOption.status).toBe(400);
  });
});
