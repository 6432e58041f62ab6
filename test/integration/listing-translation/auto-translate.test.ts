import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as aiRoute from "../../../app/api/v1/settings/ai/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { events, listings, listingTranslationQueue } from "../../../db/schema";
import { processListingTranslations } from "../../../lib/listing-translation/process";
import { lastUserText, startFakeModel, type FakeModel, type FakeModelRequest } from "../../fakes/model-server";
import { makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let fake: FakeModel;
let t: TestTenant;

/** A translator that marks its output, so a test can tell what came from the model and in which language. */
function translator(req: FakeModelRequest) {
  const system = String(req.messages[0]?.content ?? "");
  const tag = system.includes("into English") ? "EN" : system.includes("into Spanish") ? "ES" : "??";
  const src = JSON.parse(lastUserText(req)) as { title: string; description: string | null };
  return {
    text: JSON.stringify({ title: `${tag}: ${src.title}`, description: src.description === null ? null : `${tag}: ${src.description}` }),
    usage: { inputTokens: 50, outputTokens: 20 },
  };
}

async function setup(tt: TestTenant, translation: unknown = { enabled: true, targets: ["en", "es"] }) {
  const s = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", {
    key: tt.key,
    body: { listingLanguages: ["pt-BR", "en", "es"], listingTranslation: translation },
  });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  const a = await call(aiRoute.PUT, "PUT", "/api/v1/settings/ai", {
    key: tt.key,
    body: { baseUrl: fake.url, apiKey: "sk-fake", defaultModel: "translator-1", monthlyTokenBudget: null },
  });
  expect(a.status).toBe(200);
}

async function createListing(tt: TestTenant, over: Record<string, unknown> = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/api/v1/real-estate/properties", {
    key: tt.key,
    body: propertyBody({}, [saleListing({ description: "Sala ampla, 2 vagas, varanda gourmet.", ...over })]),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { propertyId: res.body.property.id as string, listing: res.body.listings[0] as { id: string; translations: Record<string, unknown> } };
}

const db = () => getDb();
const listingRow = async (id: string) => (await (await db()).select().from(listings).where(eq(listings.id, id)))[0];
const queued = async (id: string) => (await (await db()).select().from(listingTranslationQueue).where(eq(listingTranslationQueue.listingId, id)))[0];
const makeDue = async (id: string) =>
  (await db())
    .update(listingTranslationQueue)
    .set({ nextAttemptAt: new Date(0) })
    .where(eq(listingTranslationQueue.listingId, id));
const run = async () => processListingTranslations(await db(), 50);
const updatedEvents = async (id: string) =>
  await (await db())
    .select()
    .from(events)
    .where(and(eq(events.entityId, id), eq(events.eventName, "listing.updated")))
    .orderBy(events.seq);

beforeAll(async () => {
  fake = await startFakeModel({ apiKey: "sk-fake", script: translator });
  t = await makeTenant();
  await setup(t);
});

afterAll(async () => {
  await fake.close();
});

describe("listingTranslation setting", () => {
  it("defaults to off and needs its targets enabled as listing languages", async () => {
    const fresh = await makeTenant();
    const read = await call(settingsRoute.GET, "GET", "/api/v1/settings", { key: fresh.key });
    expect(read.body.listingTranslation).toEqual({ enabled: false, targets: ["en", "es"] });
    const bad = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", {
      key: fresh.key,
      body: { listingTranslation: { enabled: true, targets: ["en"] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/listingTranslation\.targets: 'en' is not enabled in listingLanguages/);
    for (const body of [{ listingTranslation: { enabled: true, targets: ["fr"] } }, { listingTranslation: { enabled: "yes", targets: [] } }]) {
      const r = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: fresh.key, body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/listingTranslation/);
    }
    expect((await call(settingsRoute.GET, "GET", "/api/v1/settings", { key: fresh.key })).body.listingTranslation.enabled).toBe(false);
  });
});

describe("automatic listing translation", () => {
  it("fills en and es from the model in the background, as source ai, with listing.updated", async () => {
    const before = fake.requests.length;
    const { listing } = await createListing(t);
    // The write itself translates nothing (spec 1 §2.2 rule 4): it answers at once, without a model call.
    expect(listing.translations).toEqual({});
    expect(fake.requests.length).toBe(before);
    expect(await queued(listing.id)).toBeTruthy();
    const r = await run();
    expect(r.outcomes).toContain("translated");
    const row = await listingRow(listing.id);
    expect(row.translations.en).toMatchObject({
      title: "EN: Apartamento 3 dormitórios nos Jardins",
      description: "EN: Sala ampla, 2 vagas, varanda gourmet.",
      source: "ai",
    });
    expect(row.translations.es).toMatchObject({ title: "ES: Apartamento 3 dormitórios nos Jardins", source: "ai" });
    expect(row.translations.en?.translatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await queued(listing.id)).toBeUndefined();
    const calls = fake.requests.slice(before);
    expect(calls.map((c) => c.model)).toEqual(["translator-1", "translator-1"]);
    expect(calls.every((c) => c.authorization === "Bearer sk-fake")).toBe(true);
    const ev = await updatedEvents(listing.id);
    expect(ev).toHaveLength(1);
    expect((ev[0].data as any).listing.translations.es.source).toBe("ai");
    expect(ev[0].old).toMatchObject({ translations: {} });
    expect(ev[0].userId).toBeNull();
    // The tokens count against the tenant's month.
    const ai = await call(aiRoute.GET, "GET", "/api/v1/settings/ai", { key: t.key });
    expect(ai.body.tokensUsedThisMonth).toBeGreaterThanOrEqual(140);
  });

  it("never overwrites a manual translation, and replaces a stale ai one when the Portuguese text changes", async () => {
    const { propertyId, listing } = await createListing(t, { translations: { en: { title: "My own English title" } } });
    await run();
    let row = await listingRow(listing.id);
    expect(row.translations.en).toMatchObject({ title: "My own English title", source: "manual" });
    expect(row.translations.es).toMatchObject({ title: "ES: Apartamento 3 dormitórios nos Jardins", source: "ai" });
    expect(fake.requests.at(-1)?.messages[0].content).toMatch(/Spanish/);

    const patch = await call(propertyRoute.PATCH, "PATCH", `/api/v1/real-estate/properties/${propertyId}`, {
      key: t.key,
      params: { propertyId },
      body: { listings: [{ id: listing.id, title: "Cobertura duplex com piscina" }] },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    await run();
    row = await listingRow(listing.id);
    expect(row.translations.es).toMatchObject({ title: "ES: Cobertura duplex com piscina", source: "ai" });
    expect(row.translations.en).toMatchObject({ title: "My own English title", source: "manual" });
  });

  it("queues nothing when the Portuguese text does not change, or when translation is off", async () => {
    const { listing } = await createListing(t);
    await run();
    const calls = fake.requests.length;
    const res = await call(listingRoute.PATCH, "PATCH", `/api/v1/real-estate/listings/${listing.id}`, {
      key: t.key,
      params: { id: listing.id },
      body: { price: "999000.00" },
    });
    expect(res.status).toBe(200);
    expect(await queued(listing.id)).toBeUndefined();

    const off = await makeTenant();
    await setup(off, { enabled: false, targets: ["en", "es"] });
    const { listing: l2 } = await createListing(off);
    expect(await queued(l2.id)).toBeUndefined();
    await run();
    expect(fake.requests.length).toBe(calls);
  });

  it("retries a failing or garbage model later, never breaking the listing write", async () => {
    fake.setScript(() => ({ httpError: 500 }));
    const { listing } = await createListing(t, { title: "Casa térrea" });
    expect(await listingRow(listing.id)).toBeTruthy();
    const r1 = await run();
    expect(r1.failed).toBe(1);
    let q = await queued(listing.id);
    expect(q).toMatchObject({ attempts: 1, claimedAt: null });
    expect(q.lastError).toMatch(/500/);
    expect(q.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: the next run leaves it.
    expect((await run()).claimed).toBe(0);

    fake.setScript(() => ({ garbage: "Claro! Aqui está a tradução: Single-storey house" }));
    await makeDue(listing.id);
    expect((await run()).failed).toBe(1);
    q = await queued(listing.id);
    expect(q.attempts).toBe(2);
    expect(q.lastError).toMatch(/JSON/);
    expect((await listingRow(listing.id)).translations).toEqual({});

    fake.setScript(translator);
    await makeDue(listing.id);
    expect((await run()).outcomes).toEqual(["translated"]);
    expect((await listingRow(listing.id)).translations.en?.title).toBe("EN: Casa térrea");
  });

  it("drops a listing after the last failed attempt", async () => {
    fake.setScript(() => ({ httpError: 503 }));
    const { listing } = await createListing(t, { title: "Terreno plano" });
    for (let i = 0; i < 5; i++) {
      await makeDue(listing.id);
      expect((await run()).failed).toBe(1);
    }
    expect(await queued(listing.id)).toBeUndefined();
    fake.setScript(translator);
  });

  it("discards a translation of text that changed during the model call, and translates the new text", async () => {
    const { propertyId, listing } = await createListing(t, { title: "Texto antigo" });
    let changed = false;
    fake.setScript(async (req) => {
      if (!changed) {
        changed = true;
        const p = await call(propertyRoute.PATCH, "PATCH", `/api/v1/real-estate/properties/${propertyId}`, {
          key: t.key,
          params: { propertyId },
          body: { listings: [{ id: listing.id, title: "Texto novo" }] },
        });
        expect(p.status).toBe(200);
      }
      return translator(req);
    });
    const r = await run();
    expect(r.outcomes).toEqual(["stale"]);
    expect((await listingRow(listing.id)).translations).toEqual({});
    expect(await queued(listing.id)).toBeTruthy();
    await run();
    expect((await listingRow(listing.id)).translations.en?.title).toBe("EN: Texto novo");
    fake.setScript(translator);
  });

  it("makes no model call when the monthly budget is used up, and waits", async () => {
    const poor = await makeTenant();
    await setup(poor);
    await call(aiRoute.PUT, "PUT", "/api/v1/settings/ai", {
      key: poor.key,
      body: { baseUrl: fake.url, defaultModel: "translator-1", monthlyTokenBudget: 0 },
    });
    const { listing } = await createListing(poor);
    const calls = fake.requests.length;
    const r = await run();
    expect(r.outcomes).toEqual(["budget_exhausted"]);
    expect(fake.requests.length).toBe(calls);
    const q = await queued(listing.id);
    expect(q).toMatchObject({ attempts: 0, lastError: "budget_exhausted", claimedAt: null });
    expect(q.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect((await listingRow(listing.id)).translations).toEqual({});
  });

  it("skips a tenant without a model provider, and touches no other tenant's listings", async () => {
    const bare = await makeTenant();
    const s = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", {
      key: bare.key,
      body: { listingLanguages: ["pt-BR", "en"], listingTranslation: { enabled: true, targets: ["en"] } },
    });
    expect(s.status).toBe(200);
    const { listing } = await createListing(bare);
    const { listing: mine } = await createListing(t, { title: "Só meu" });
    const calls = fake.requests.length;
    const r = await run();
    expect(r.outcomes.sort()).toEqual(["no_model", "translated"]);
    expect(await queued(listing.id)).toBeUndefined();
    expect((await listingRow(listing.id)).translations).toEqual({});
    expect((await listingRow(mine.id)).translations.en?.title).toBe("EN: Só meu");
    // Only the other tenant's two languages went to the model, with its key.
    expect(fake.requests.slice(calls)).toHaveLength(2);
  });

  it("queues the existing catalogue when translation starts for a language, except manual translations", async () => {
    const late = await makeTenant();
    await setup(late, { enabled: false, targets: ["en", "es"] });
    const { listing: plain } = await createListing(late, { title: "Casa antiga" });
    const { listing: manual } = await createListing(late, { title: "Casa manual", translations: { en: { title: "Hand-made" } } });
    expect(await queued(plain.id)).toBeUndefined();
    // English only first: the manual one needs nothing.
    let res = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: late.key, body: { listingTranslation: { enabled: true, targets: ["en"] } } });
    expect(res.status).toBe(200);
    expect(await queued(plain.id)).toBeTruthy();
    expect(await queued(manual.id)).toBeUndefined();
    await run();
    expect((await listingRow(plain.id)).translations.en?.title).toBe("EN: Casa antiga");
    // Adding Spanish queues both again; the manual English stays.
    res = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", {
      key: late.key,
      body: { listingTranslation: { enabled: true, targets: ["en", "es"] } },
    });
    expect(res.status).toBe(200);
    expect(await queued(manual.id)).toBeTruthy();
    await run();
    const m = await listingRow(manual.id);
    expect(m.translations.en).toMatchObject({ title: "Hand-made", source: "manual" });
    expect(m.translations.es).toMatchObject({ title: "ES: Casa manual", source: "ai" });
    // A PATCH that changes nothing about translation queues nothing.
    await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: late.key, body: { primaryMarketEnabled: true } });
    expect(await queued(plain.id)).toBeUndefined();
  });
});
