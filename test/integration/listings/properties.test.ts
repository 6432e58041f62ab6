import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { events, properties } from "../../../db/schema";
import { makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;

beforeAll(async () => {
  t = await makeTenant();
});

async function eventsOf(entityId: string) {
  const db = await getDb();
  return db.select().from(events).where(eq(events.entityId, entityId)).orderBy(events.seq);
}

describe("POST /properties", () => {
  it("creates a property with nested listings, an automatic code and events in the outbox", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", {
      key: t.key,
      body: propertyBody(
        {
          suites: 1,
          parkingSpaces: 2,
          features: ["balcony", "barbecue"],
          condominiumFee: "1200.00",
          propertyTax: "350.5",
          owner: { name: "Carlos Souza", phone: "(11) 98765-4321", cpf: "529.982.247-25" },
          internalNotes: "Chave na portaria",
          media: [
            { url: "https://cdn.example.com/a.jpg", alt: "Sala", category: "living_room" },
            { url: "https://cdn.example.com/b.jpg", isPrimary: true },
          ],
        },
        [saleListing(), saleListing({ type: "rental", title: "Locação", price: "6500", typeSpecificData: { deposit: 19500, furnished: true } })],
      ),
    });
    expect(res.status).toBe(201);
    const { property, location, listings: ls } = res.body;
    expect(property.owner).toEqual({ name: "Carlos Souza", phone: "+5511987654321", email: null, whatsapp: null, cpf: "52998224725" });
    expect(property.totalArea).toBe("120.50");
    expect(property.propertyTax).toBe("350.50");
    expect(property.media.map((m: any) => m.isPrimary)).toEqual([false, true]);
    expect(location.city).toBe("São Paulo");
    expect(ls).toHaveLength(2);
    expect(ls[0]).toMatchObject({ price: "1250000.00", isPrimaryMarket: "false", stage: "draft", visibility: "public", currency: "BRL" });
    expect(ls[0].listingCode).toMatch(/^AP\d{4}$/);
    expect(ls[1].listingCode).not.toBe(ls[0].listingCode);
    expect(ls[1].price).toBe("6500.00");
    expect(ls[1].typeSpecificData).toEqual({ deposit: 19500, furnished: true });

    expect((await eventsOf(property.id)).map((e) => e.eventName)).toEqual(["property.created"]);
    const created = await eventsOf(ls[0].id);
    expect(created.map((e) => e.eventName)).toEqual(["listing.created"]);
    expect(created[0]).toMatchObject({ tenantId: t.tenantId, entityType: "listing", userId: t.ownerId });
    expect((created[0].data as any).listing.id).toBe(ls[0].id);
  });

  it("rejects a bad payload with a 400 naming the field and writes nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(properties)).length;
    const cases: [unknown, RegExp][] = [
      [propertyBody({}, [saleListing({ price: 12.5 })]), /listings\.0\.price/],
      [propertyBody({}, [saleListing({ price: "12,50" })]), /listings\.0\.price/],
      [propertyBody({}, [saleListing({ type: "lease" })]), /listings\.0\.type/],
      [propertyBody({}, [saleListing({ stage: "published" })]), /listings\.0\.stage: 'published' is not a listing stage/],
      [propertyBody({}, [saleListing({ isPrimaryMarket: true })]), /listings\.0\.isPrimaryMarket/],
      [propertyBody({ type: "castle" }), /property\.type: 'castle'/],
      [propertyBody({ features: ["moat"] }), /property\.features/],
      [propertyBody({ owner: { cpf: "111.111.111-11" } }), /property\.owner\.cpf/],
      [propertyBody({ owner: { phone: "12" } }), /property\.owner\.phone/],
      [propertyBody({ bedrooms: "three" }), /property\.bedrooms/],
      [propertyBody({ color: "blue" }), /color/],
      [propertyBody({}, [saleListing({ translations: { "pt-BR": { title: "x" } } })]), /listings\.0\.translations\.pt-BR/],
      [propertyBody({}, [saleListing({ translations: { en: { title: "x", source: "ai" } } })]), /listings\.0\.translations\.en\.source/],
      [propertyBody({}, [saleListing({ translations: { en: { title: "x" } } })]), /translations\.en: language 'en' is not enabled/],
      [propertyBody({}, [saleListing({ typeSpecificData: { deposit: 1 } })]), /typeSpecificData/],
      [propertyBody({}, [saleListing({ typologyId: "00000000-0000-4000-8000-000000000000" })]), /listings\.0\.typologyId/],
      [propertyBody({ assignedToId: "00000000-0000-4000-8000-000000000000" }), /property\.assignedToId/],
      [propertyBody({}, [{ ...saleListing(), id: "00000000-0000-4000-8000-000000000000" }]), /listings\.0\.id/],
      [{ location: {} }, /property/],
      [propertyBody({ media: [{ url: "javascript:alert(1)" }] }), /property\.media\.0\.url/],
      [propertyBody({ videoUrl: "data:text/html,<script>x</script>" }), /property\.videoUrl/],
      [propertyBody({ virtualTourUrl: "//evil.example.com/x" }), /property\.virtualTourUrl/],
    ];
    for (const [body, message] of cases) {
      const res = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBeTypeOf("string");
      expect(res.body.error.message).toMatch(message);
    }
    const bad = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", { key: t.key, rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_json");
    expect((await db.select().from(properties)).length).toBe(before);
  });
});
