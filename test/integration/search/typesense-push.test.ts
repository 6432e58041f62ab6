import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { listings } from "../../../db/schema";
import { settleAfterCommit } from "../../../db/transaction";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { config, resetConfigForTests } from "../../../lib/config";
import { memberCtx } from "../../../lib/context/verb-context";
import { deleteListing, updateListing } from "../../../lib/listings/listings";
import { createProperty } from "../../../lib/listings/properties";
import { CachedSearchEngine } from "../../../lib/search/cached-engine";
import { TimedSearchEngine } from "../../../lib/search/timed-engine";
import { resetSearchBackendsForTests } from "../../../lib/search/index-writer";
import { reindexAll } from "../../../lib/search/reindex";
import { searchEngine } from "../../../lib/search/search-engine";
import { makeTenant, propertyBody, saleListing } from "../../helpers/factories";
import { startFakeTypesense } from "../../helpers/fake-typesense";

const COLLECTION = "listings_push_test";
let ts: Awaited<ReturnType<typeof startFakeTypesense>>;
const saved = { ...process.env };

beforeAll(async () => {
  ts = await startFakeTypesense();
  Object.assign(process.env, { TYPESENSE_URL: ts.url, TYPESENSE_API_KEY: ts.apiKey, TYPESENSE_COLLECTION: COLLECTION });
  delete process.env.SEARCH_CACHE_TTL_MS; // the default: cache on
  resetConfigForTests();
  resetSearchBackendsForTests();
});
afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  resetSearchBackendsForTests();
  await ts.close();
});

const ctxOf = async (key: string) => memberCtx(await getDb(), await authenticateApiKey(await getDb(), key));

describe("Typesense push with the search cache on", () => {
  it("queries go through the cache while writes still reach Typesense after commit", async () => {
    expect(config().SEARCH_CACHE_TTL_MS).toBeGreaterThan(0);
    // The timing wrapper is outermost (crm_search_duration_seconds), the cache right under it.
    const engine = await searchEngine();
    expect(engine).toBeInstanceOf(TimedSearchEngine);
    expect((engine as TimedSearchEngine).inner).toBeInstanceOf(CachedSearchEngine);

    const t = await makeTenant();
    const ctx = await ctxOf(t.key);
    // A verb called directly, as a job or an import would: no HTTP wrapper involved.
    const created = await createProperty(
      ctx,
      propertyBody({}, [saleListing({ title: "Cobertura com vista" }), saleListing({ title: "Mesmo imóvel, outra oferta" })]),
    );
    const [a, b] = created.listings.map((l) => l.id);
    await settleAfterCommit();
    const docs = ts.docs(COLLECTION);
    expect(docs.get(a)).toMatchObject({ id: a, title: "Cobertura com vista", tenant_id: t.tenantId });
    expect(docs.get(b)).toMatchObject({ id: b, title: "Mesmo imóvel, outra oferta" });

    await updateListing(ctx, { id: a, body: { title: "Cobertura reformada com vista" } });
    await settleAfterCommit();
    expect(ts.docs(COLLECTION).get(a)).toMatchObject({ title: "Cobertura reformada com vista" });

    await deleteListing(ctx, b);
    await settleAfterCommit();
    expect(ts.docs(COLLECTION).has(b)).toBe(false);
  });

  it("pushes nothing for a write that rolls back", async () => {
    const t = await makeTenant();
    const ctx = await ctxOf(t.key);
    const before = ts.requests.length;
    await expect(createProperty(ctx, propertyBody({}, [saleListing({ stage: "no-such-stage" })]))).rejects.toThrow();
    await settleAfterCommit();
    expect(ts.requests.slice(before).filter((r) => r.path.includes("/documents"))).toEqual([]);
  });

  it("the reindex command pushes every document of the tenant", async () => {
    const t = await makeTenant();
    const ctx = await ctxOf(t.key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        ...(await createProperty(ctx, propertyBody({}, [saleListing({ title: `Casa ${i}` }), saleListing({ title: `Casa ${i} bis` })]))).listings.map(
          (l) => l.id,
        ),
      );
    await settleAfterCommit();
    for (const id of ids) ts.docs(COLLECTION).delete(id);

    const result = await reindexAll(await getDb(), { tenant: t.slug });
    const stored = await (await getDb()).select({ id: listings.id }).from(listings).where(eq(listings.tenantId, t.tenantId));
    expect(result).toMatchObject({ listings: stored.length, tenants: 1, pushed: stored.length });
    for (const { id } of stored) expect(ts.docs(COLLECTION).get(id)).toMatchObject({ id, tenant_id: t.tenantId });
  });
});
