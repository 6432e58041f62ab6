import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { events, listings } from "../../../db/schema";
import { makeTenant, makeTypology, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;

beforeAll(async () => {
  t = await makeTenant();
  // English on, so translations can be written.
  const res = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: t.key, body: { listingLanguages: ["pt-BR", "en"] } });
  expect(res.status).toBe(200);
});

async function createProperty(listingsBody: unknown[] = [saleListing()], over: Record<string, unknown> = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", { key: t.key, body: propertyBody(over, listingsBody) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const listingPath = (id: string) => `/api/v1/real-estate/listings/${id}`;
const eventNames = async (entityId: string) =>
  (await (await getDb()).select().from(events).where(eq(events.entityId, entityId)).orderBy(events.seq)).map((e) => e.eventName);

describe("GET /listings", () => {
  it("pages newest first with the documented envelope and filters", async () => {
    await createProperty([saleListing({ title: "Venda A" }), saleListing({ title: "Aluguel A", type: "rental", price: "3000.00", visibility: "private" })]);
    await createProperty([saleListing({ title: "Venda B", stage: "active", status: "available" })]);
    const all = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, pageSize: 50 });
    expect(all.body.total).toBe(all.body.items.length);
    expect(all.body.items[0].title).toBe("Venda B");

    const rentals = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key, query: { type: "rental" } });
    expect(rentals.body.items.map((l: any) => l.title)).toEqual(["Aluguel A"]);
    const priv = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key, query: { visibility: "private" } });
    expect(priv.body.items.every((l: any) => l.visibility === "private")).toBe(true);
    const active = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key, query: { stage: "active" } });
    expect(active.body.items.map((l: any) => l.title)).toEqual(["Venda B"]);

    const page2 = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key, query: { pageSize: "1", page: "2" } });
    expect(page2.body).toMatchObject({ page: 2, pageSize: 1, total: all.body.total });
    expect(page2.body.items[0].id).toBe(all.body.items[1].id);
  });

  it("refuses out-of-range paging and unknown parameters with a 400 naming them", async () => {
    for (const [query, field] of [
      [{ pageSize: "101" }, "pageSize"],
      [{ pageSize: "0" }, "pageSize"],
      [{ page: "0" }, "page"],
      [{ page: "abc" }, "page"],
      [{ type: "lease" }, "type"],
      [{ visibility: "hidden" }, "visibility"],
      [{ pagesize: "10" }, "pagesize"],
    ] as const) {
      const res = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: t.key, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
  });
});

describe("GET/PATCH/DELETE /listings/{id}", () => {
  it("returns the spec fields", async () => {
    const {
      listings: [l],
    } = await createProperty();
    const res = await call(listingRoute.GET, "GET", listingPath(l.id), { key: t.key, params: { id: l.id } });
    expect(res.status).toBe(200);
    for (const f of [
      "id",
      "title",
      "type",
      "price",
      "priceVisibility",
      "visibility",
      "stage",
      "status",
      "listingCode",
      "propertyId",
      "isPrimaryMarket",
      "typologyId",
      "createdAt",
      "updatedAt",
    ]) {
      expect(res.body).toHaveProperty(f);
    }
    expect(res.body.price).toBe("1250000.00");
    expect(res.body.isPrimaryMarket).toBe("false");
  });

  it("updates visibility and price, writing listing.updated with old and new rows", async () => {
    const {
      listings: [l],
    } = await createProperty();
    const res = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), {
      key: t.key,
      params: { id: l.id },
      body: { visibility: "private", price: "1190000" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ visibility: "private", price: "1190000.00" });
    const db = await getDb();
    const [ev] = await db.select().from(events).where(eq(events.entityId, l.id)).orderBy(events.seq).offset(1);
    expect(ev.eventName).toBe("listing.updated");
    expect((ev.old as any).price).toBe("1250000.00");
    expect((ev.data as any).listing.price).toBe("1190000.00");
    expect((ev.data as any).listing.visibility).toBe("private");
  });

  it("moves the workflow: stage and status validated, transition event with from/to, publishedAt set", async () => {
    const {
      listings: [l],
    } = await createProperty();
    expect(l.publishedAt).toBeNull();
    const bad = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), { key: t.key, params: { id: l.id }, body: { stage: "active", status: "sold" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/status: 'sold' is not a status of stage 'active'/);
    const res = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), {
      key: t.key,
      params: { id: l.id },
      body: { stage: "active", status: "available" },
    });
    expect(res.status).toBe(200);
    expect(res.body.publishedAt).not.toBeNull();
    const db = await getDb();
    const evs = await db.select().from(events).where(eq(events.entityId, l.id)).orderBy(events.seq);
    expect(evs.map((e) => e.eventName)).toEqual(["listing.created", "listing.updated", "listing.workflow.transitioned"]);
    expect(evs[2].data).toMatchObject({ from: { stage: "draft", status: null }, to: { stage: "active", status: "available" } });
    // Moving stage without a status clears the old sub-status.
    const closed = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), { key: t.key, params: { id: l.id }, body: { stage: "closed" } });
    expect(closed.body).toMatchObject({ stage: "closed", status: null });
  });

  it("changes nothing and writes no event for an update to the same values", async () => {
    const {
      listings: [l],
    } = await createProperty();
    const res = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), { key: t.key, params: { id: l.id }, body: { title: l.title, price: l.price } });
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBe(l.updatedAt);
    expect(await eventNames(l.id)).toEqual(["listing.created"]);
  });

  it("refuses translations on PATCH /listings/{id} and says where they go", async () => {
    const {
      listings: [l],
    } = await createProperty();
    const res = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), {
      key: t.key,
      params: { id: l.id },
      body: { translations: { en: { title: "Flat" } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/translations.*properties\/\{propertyId\}/);
  });

  it("refuses bad updates with a 400 and leaves the row as it was", async () => {
    const {
      listings: [l],
    } = await createProperty();
    for (const body of [{ price: -1 }, { type: "lease" }, { isPrimaryMarket: "yes" }, { visibility: null }, { foo: 1 }, {}, { listingCode: "has space" }]) {
      const res = await call(listingRoute.PATCH, "PATCH", listingPath(l.id), { key: t.key, params: { id: l.id }, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const db = await getDb();
    const [row] = await db.select().from(listings).where(eq(listings.id, l.id));
    expect(row.updatedAt.toISOString()).toBe(l.updatedAt);
  });

  it("keeps listing codes unique per tenant and regenerates an emptied code", async () => {
    const {
      listings: [a],
    } = await createProperty([saleListing({ listingCode: "JD-001" })]);
    expect(a.listingCode).toBe("JD-001");
    const dup = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", {
      key: t.key,
      body: propertyBody({}, [saleListing({ listingCode: "JD-001" })]),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/listings\.0\.listingCode: 'JD-001'/);
    const other = await makeTenant();
    const sameElsewhere = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", {
      key: other.key,
      body: propertyBody({}, [saleListing({ listingCode: "JD-001" })]),
    });
    expect(sameElsewhere.status).toBe(201);
    const emptied = await call(listingRoute.PATCH, "PATCH", listingPath(a.id), { key: t.key, params: { id: a.id }, body: { listingCode: "" } });
    expect(emptied.body.listingCode).toMatch(/^AP\d{4}$/);
  });

  it("deletes a listing and records listing.deleted; a second delete is a 404", async () => {
    const {
      listings: [l],
    } = await createProperty();
    const res = await call(listingRoute.DELETE, "DELETE", listingPath(l.id), { key: t.key, params: { id: l.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: l.id, deleted: true });
    expect(await eventNames(l.id)).toEqual(["listing.created", "listing.deleted"]);
    const again = await call(listingRoute.DELETE, "DELETE", listingPath(l.id), { key: t.key, params: { id: l.id } });
    expect(again.status).toBe(404);
    const get = await call(listingRoute.GET, "GET", listingPath(l.id), { key: t.key, params: { id: l.id } });
    expect(get.status).toBe(404);
  });

  it("answers 404 for a malformed or unknown id", async () => {
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const res = await call(listingRoute.GET, "GET", listingPath(id), { key: t.key, params: { id } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });
});

describe("PATCH /properties/{propertyId}", () => {
  it("updates the property, updates listings addressed by id, creates the others, and writes translations", async () => {
    const created = await createProperty();
    const [l] = created.listings;
    const res = await call(propertyRoute.PATCH, "PATCH", `/api/v1/real-estate/properties/${created.property.id}`, {
      key: t.key,
      params: { propertyId: created.property.id },
      body: {
        property: { bedrooms: 4, media: [{ url: "https://cdn.example.com/new.jpg" }] },
        location: { street: "Rua Oscar Freire", number: "100", postalCode: "01426-001", latitude: -23.56, longitude: -46.67 },
        listings: [
          { id: l.id, price: "1300000.00", translations: { en: { title: "3-bedroom flat in Jardins" } } },
          saleListing({ type: "rental", title: "Também para alugar", price: "7000.00" }),
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.property.bedrooms).toBe(4);
    expect(res.body.property.media).toHaveLength(1);
    expect(res.body.property.media[0].isPrimary).toBe(true);
    expect(res.body.location).toMatchObject({ street: "Rua Oscar Freire", city: "São Paulo", latitude: -23.56 });
    expect(res.body.listings).toHaveLength(2);
    const updated = res.body.listings.find((x: any) => x.id === l.id);
    expect(updated.price).toBe("1300000.00");
    expect(updated.translations.en).toMatchObject({ title: "3-bedroom flat in Jardins", source: "manual" });
    expect(updated.translations.en.translatedAt).toMatch(/^\d{4}-/);
    expect(await eventNames(created.property.id)).toEqual(["property.created", "property.updated"]);
    expect(await eventNames(l.id)).toEqual(["listing.created", "listing.updated"]);

    const got = await call(propertyRoute.GET, "GET", "/x", { key: t.key, params: { propertyId: created.property.id } });
    expect(got.status).toBe(200);
    expect(got.body.listings).toHaveLength(2);
  });

  it("refuses a listing id of another property, and rolls back everything in the request", async () => {
    const a = await createProperty();
    const b = await createProperty();
    const res = await call(propertyRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { propertyId: a.property.id },
      body: { property: { bedrooms: 9 }, listings: [{ id: b.listings[0].id, price: "1.00" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/listings\.0\.id/);
    const got = await call(propertyRoute.GET, "GET", "/x", { key: t.key, params: { propertyId: a.property.id } });
    expect(got.body.property.bedrooms).toBe(3);
  });

  it("links a development listing to a typology of the tenant only", async () => {
    const { typologyId } = await makeTypology(t);
    const res = await createProperty([saleListing({ typologyId })]);
    expect(res.listings[0]).toMatchObject({ typologyId, isPrimaryMarket: "true" });
    const contradiction = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: propertyBody({}, [saleListing({ typologyId, isPrimaryMarket: "false" })]),
    });
    expect(contradiction.status).toBe(400);
    const other = await makeTenant();
    const foreign = await call(propertiesRoute.POST, "POST", "/x", { key: other.key, body: propertyBody({}, [saleListing({ typologyId })]) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/typologyId/);
  });
});
