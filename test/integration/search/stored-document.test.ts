import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { buildDocuments } from "../../../lib/search/index-listings";
import { docColumns, documentExtras, documentFromRow } from "../../../lib/search/stored-document";
import { loadTenant } from "../../../lib/tenants/load-tenant";
import { makeTenant, makeTypology, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing } from "../../helpers/share";

/**
 * Search documents are stored as their columns plus `extras` (lib/search/stored-document.ts).
 * What is read back must be the document `buildSearchDocument` made, exactly as `jsonb` kept it
 * before: same keys in the same order, same values.
 */
describe("stored search documents", () => {
  let t: TestTenant;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await makeTenant();
    const langs = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { listingLanguages: ["pt-BR", "en", "es"] } });
    expect(langs.status, JSON.stringify(langs.body)).toBe(200);
    const { typologyId } = await makeTypology(t);
    ids.push((await makeListing(t)).id);
    // Photos (a primary one out of order), video, tour, features, translations, cents, a price past 2^24, decimals in areas.
    ids.push(
      (
        await makeListing(
          t,
          { price: "25000000.55", translations: { en: { title: "Penthouse with a view", description: "Top floor." }, es: { title: "Ático" } } },
          {
            features: ["balcony", "closet"],
            totalArea: "78.55",
            privateArea: "70.10",
            condominiumFee: "1234.56",
            propertyTax: "99.99",
            videoUrl: "https://video.example.com/v/1",
            virtualTourUrl: "https://tour.example.com/t/1",
            media: [
              { url: "https://img.example.com/b.jpg", order: 2 },
              { url: "https://img.example.com/a.jpg", order: 1, isPrimary: true },
              { url: "/demo/photo-3.svg", order: 3, type: "floor_plan" },
            ],
          },
        )
      ).id,
    );
    // No price, no coordinates, no description; a rental.
    ids.push(
      (
        await makeListing(
          t,
          { type: "rental", price: null, description: null },
          { condominiumFee: null, propertyTax: null },
          { latitude: null, longitude: null },
        )
      ).id,
    );
    // A development listing: its facts come from the typology.
    ids.push((await makeListing(t, { isPrimaryMarket: "true", typologyId, price: null })).id);
  });

  it("reads back every document as built, keys and order included", async () => {
    const db = await getDb();
    const { settings } = await loadTenant(db, t.tenantId);
    const built = await buildDocuments(db, t.tenantId, ids, settings);
    expect(built).toHaveLength(ids.length);
    const stored = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select ${docColumns("d")} from search_index d where d.tenant_id = ${t.tenantId}::uuid`),
    );
    expect(stored).toHaveLength(ids.length);
    for (const b of built) {
      const row = stored.find((r) => r.listing_id === b.listing.id)!;
      // What jsonb kept of the built document: its keys in jsonb's order, its numbers as jsonb writes them.
      const [{ j }] = rowsOf<{ j: unknown }>(await db.execute(sql`select ${JSON.stringify(b.doc)}::jsonb as j`));
      const asJsonb = typeof j === "string" ? JSON.parse(j) : j;
      const read = documentFromRow(row);
      expect(read).toEqual(asJsonb);
      expect(Object.keys(read)).toEqual(Object.keys(asJsonb));
    }
  });

  it("keeps beside the columns only what they cannot give back", async () => {
    const db = await getDb();
    const { settings } = await loadTenant(db, t.tenantId);
    const built = await buildDocuments(db, t.tenantId, ids.slice(0, 2), settings);
    const [plain, rich] = ids.slice(0, 2).map((id) => built.find((b) => b.listing.id === id)!);
    expect(documentExtras(plain.doc)).toEqual({ propertyTypeLabel: "Apartamento" });
    expect(documentExtras(rich.doc)).toEqual({
      propertyTypeLabel: "Apartamento",
      imageUrls: ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg"],
      videoUrl: "https://video.example.com/v/1",
      tourUrl: "https://tour.example.com/t/1",
      // Not integers up to 2^24, so a `real` column cannot hold them exactly.
      price: 25000000.55,
      totalArea: 78.55,
      privateArea: 70.1,
      condoFee: 1234.56,
      propertyTax: 99.99,
    });
  });
});
