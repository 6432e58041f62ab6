import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { inTransaction } from "../../../db/transaction";
import type { SearchEngine, SearchScope } from "../../../lib/search/engine";
import { derivedTokens, derivedTokensSql, normalizeTokens, storedElements, storedTokens } from "../../../lib/search/filter";
import { derivedSql } from "../../../lib/search/filter/compile-sql";
import { FOLD_FROM, FOLD_TO } from "../../../lib/search/filter/normalize";
import { reindexListings } from "../../../lib/search/index-listings";
import { MemorySearchEngine } from "../../../lib/search/memory/memory-engine";
import { toSearchRequest } from "../../../lib/search/params";
import { PostgresSearchEngine } from "../../../lib/search/postgres/postgres-engine";
import { generateListingsSql } from "../../bench/search-data";
import { makeTenant, type TestTenant } from "../../helpers/factories";

/**
 * String filters are case-, accent- and punctuation-insensitive whether a value's tokens are
 * stored (repeated spaces, tabs, combining marks, other scripts) or derived in SQL from the value
 * (most values), through PostgreSQL and the in-memory engine alike.
 */
let db: Db;
let t: TestTenant;
let codes: string[];
const pg = new PostgresSearchEngine(getDb);
const failing: SearchEngine = {
  name: "postgres",
  search: async () => {
    throw new Error("fell back to PostgreSQL");
  },
};

/** Listing i (by code order) gets these property values. */
const DECOMPOSED = "Sa\u0303o Paulo"; // "São Paulo" with the tilde as a combining mark (NFD)
const PLACES: { city: string; hood: string; street: string; features: string[] }[] = [
  { city: "São Paulo", hood: "Vila  Madalena", street: "Rua Bela Cintra", features: ["balcony", "air-conditioning"] },
  { city: "Rio de Janeiro", hood: "Barra-da-Tijuca", street: "Av. Atlântica, 1702", features: ["Piscina", "Espaço  gourmet", "gourmet_balcony"] },
  { city: "SAO PAULO", hood: "Vila Madalena", street: "rua bela cintra", features: ["private_pool"] },
  { city: DECOMPOSED, hood: "Icaraí", street: "Rua Moreira César", features: [] },
  { city: "rio de janeiro", hood: "Barra da Tijuca", street: "Rua   Dias Ferreira", features: ["AIR CONDITIONING"] },
  // No tokens at all: an empty value (derived) and blanks (a copy of nothing).
  { city: "", hood: "  ", street: "Rua Augusta", features: [""] },
];

beforeAll(async () => {
  db = await getDb();
  t = await makeTenant();
  await db.execute(generateListingsSql(t.tenantId, t.ownerId, PLACES.length));
  const rows = rowsOf<{ id: string; code: string; property_id: string }>(
    await db.execute(sql`select id, listing_code as code, property_id from listings where tenant_id = ${t.tenantId}::uuid order by listing_code`),
  );
  codes = [];
  for (const [i, r] of rows.entries()) {
    const p = PLACES[i];
    // Codes with punctuation and capitals (derived, not stored).
    const code = i === 0 ? `AP-10${i}` : i === 1 ? `CA/20${i}` : r.code;
    codes.push(code);
    await db.execute(
      sql`update properties set city = ${p.city}, neighborhood = ${p.hood}, street = ${p.street}, features = ${JSON.stringify(p.features)}::jsonb where id = ${r.property_id}::uuid`,
    );
    await db.execute(sql`update listings set listing_code = ${code} where id = ${r.id}::uuid`);
    if (i === 1) await db.execute(sql`update listings set title = 'Cobertura à beira-mar!' where id = ${r.id}::uuid`);
  }
  await inTransaction(db, (tx) =>
    reindexListings(
      tx,
      t.tenantId,
      rows.map((r) => r.id),
    ),
  );
}, 60_000);

const scope = (): SearchScope => ({ tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] });

async function codesFound(engine: SearchEngine, filter: string): Promise<string[]> {
  const r = await engine.search(scope(), toSearchRequest({ q: "*", filter_by: filter, per_page: 50 }, { maxPerPage: 250 }));
  return r.hits.map((h) => String(h.document.listingCode)).sort();
}

describe("compactly stored tokens", () => {
  it("keeps a copy only of the tokens PostgreSQL cannot derive from the value", () => {
    for (const v of ["sale", "Rio de Janeiro", "AP-1042", "CA/201", "São Paulo", "Av. Atlântica, 1702", "Imóvel em Pinheiros, ótima localização."]) {
      expect(storedTokens(v), v).toBeNull();
    }
    expect(storedTokens("Vila  Madalena")).toBe("vila madalena");
    expect(storedTokens(DECOMPOSED)).toBe("sao paulo");
    expect(storedTokens("a - b")).toBe("a b");
    expect(storedTokens("Rua\tX")).toBeNull();
    expect(storedTokens("Rua\nX")).toBe("rua x");
    expect(storedTokens("Αθήνα")).not.toBeNull();
    expect(storedElements(["balcony", "Air-Conditioning", "Espaço gourmet"])).toBeNull();
    expect(storedElements(["Piscina", "Espaço  gourmet"])).toEqual(["piscina", "espaco gourmet"]);
    expect(storedElements(["a", ""])).toEqual(["a", ""]);
    expect(storedElements([])).toBeNull();
  });

  it("folds each accented letter as the tokenizer does", () => {
    expect([...FOLD_FROM].length).toBe([...FOLD_TO].length);
    for (const [i, ch] of [...FOLD_FROM].entries()) expect(normalizeTokens(ch), ch).toEqual([FOLD_TO[i]]);
  });

  it("derives in SQL exactly what JavaScript predicts, for every character it allows", async () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
    const values = [FOLD_FROM, ascii, `${ascii}\n\t`, "Av. Paulista, 1.000 - Bela Vista", "AP-1042/B", "Ação & Reação", "SÃO JOÃO DEL-REI"];
    for (const v of values) {
      const [r] = rowsOf<{ d: string }>(await db.execute(sql`select ${derivedSql(sql`${v}::text`)} as d`));
      expect(r.d, JSON.stringify(v)).toBe(derivedTokens(v));
    }
    for (const a of [["Ar-condicionado", "Espaço gourmet", "AP-1042/B"], []]) {
      expect(storedElements(a), JSON.stringify(a)).toBeNull();
      const [r] = rowsOf<{ d: string[] }>(
        await db.execute(
          sql`select ${derivedTokensSql(
            "string[]",
            a.length
              ? sql`ARRAY[${sql.join(
                  a.map((x) => sql`${x}`),
                  sql`, `,
                )}]::text[]`
              : sql`'{}'::text[]`,
            sql`null::text[]`,
          )} as d`,
        ),
      );
      expect(r.d, JSON.stringify(a)).toEqual(a.map(derivedTokens));
    }
    // The separator the SQL joins elements on never derives.
    expect(storedElements(["a\u001fb", "c"])).toEqual(["ab", "c"]);
  });

  it("stores every copy when told the database derives differently", () => {
    expect(storedTokens("sale", false)).toBe("sale");
    expect(storedTokens("São Paulo", false)).toBe("sao paulo");
    expect(storedElements(["balcony", "Air-Conditioning"], false)).toEqual(["balcony", "airconditioning"]);
  });

  it("stores NULL for the derived ones in the tables", async () => {
    const rows = rowsOf<{ city: string; city_tok: string | null; hood_tok: string | null; code_tok: string | null }>(
      await db.execute(sql`select location_city as city, location_city_tok as city_tok, location_neighborhood_tok as hood_tok, listing_code_tok as code_tok
        from search_documents where tenant_id = ${t.tenantId}::uuid order by listing_code`),
    );
    const byCity = Object.fromEntries(rows.map((r) => [r.city, r]));
    expect(byCity["Rio de Janeiro"].city_tok).toBeNull();
    expect(byCity["São Paulo"].city_tok).toBeNull();
    expect(byCity["São Paulo"].hood_tok).toBe("vila madalena");
    expect(byCity["SAO PAULO"].hood_tok).toBeNull();
    expect(byCity[DECOMPOSED].city_tok).toBe("sao paulo");
    expect(byCity[DECOMPOSED].hood_tok).toBeNull();
    expect(rows.every((r) => r.code_tok === null)).toBe(true);
  });

  for (const [name, engine] of [
    ["PostgreSQL", () => pg],
    ["the in-memory engine", () => new MemorySearchEngine(failing, getDb, { minDocs: 0, maxDocs: 1_000 })],
  ] as const) {
    it(`matches stored and derived tokens alike through ${name}`, async () => {
      const e = engine();
      if (e instanceof MemorySearchEngine) await e.preload(t.tenantId);
      const [c0, c1, c2, c3, c4, c5] = codes;
      const sorted = (...c: string[]) => [...c].sort();
      expect(await codesFound(e, "location_city:=sao paulo")).toEqual(sorted(c0, c2, c3));
      expect(await codesFound(e, "location_city:=`Rio de Janeiro`")).toEqual(sorted(c1, c4));
      expect(await codesFound(e, "location_city:!=`São Paulo`")).toEqual(sorted(c1, c4, c5));
      expect(await codesFound(e, "location_neighborhood:!vila")).toEqual(sorted(c1, c3, c4, c5));
      expect(await codesFound(e, "location_neighborhood:=ICARAÍ")).toEqual([c3]);
      expect(await codesFound(e, "location_neighborhood:=`vila madalena`")).toEqual(sorted(c0, c2));
      // `Barra-da-Tijuca` is one token (the dash joins), `Barra da Tijuca` three.
      expect(await codesFound(e, "location_neighborhood:=barradatijuca")).toEqual([c1]);
      expect(await codesFound(e, "location_neighborhood:tijuca")).toEqual([c4]);
      expect(await codesFound(e, "location_street:cintra")).toEqual(sorted(c0, c2));
      expect(await codesFound(e, "location_street:=`rua dias ferreira`")).toEqual([c4]);
      expect(await codesFound(e, "location_street:=av atlantica*")).toEqual([c1]);
      expect(await codesFound(e, "location_street:mor*")).toEqual([c3]);
      expect(await codesFound(e, "listingCode:=ap100")).toEqual([c0]);
      expect(await codesFound(e, "listingCode:=`AP-100`")).toEqual([c0]);
      expect(await codesFound(e, "listingCode:=ca201")).toEqual([c1]);
      expect(await codesFound(e, "propertyFeatures:=airconditioning")).toEqual([c0]);
      expect(await codesFound(e, "propertyFeatures:=[privatepool, `AIR CONDITIONING`]")).toEqual(sorted(c2, c4));
      expect(await codesFound(e, "propertyFeatures:=`espaço gourmet`")).toEqual([c1]);
      expect(await codesFound(e, "propertyFeatures:=piscina")).toEqual([c1]);
      expect(await codesFound(e, "propertyFeatures:=gourmetbalcony")).toEqual([c1]);
      expect(await codesFound(e, "propertyFeatures:!=balcony")).toEqual(sorted(c1, c2, c3, c4, c5));
      // Wide fields, through the view (PostgreSQL answers them): a title with accents and punctuation, a missing value.
      if (e instanceof MemorySearchEngine) return;
      expect(await codesFound(e, "title:=`cobertura a beiramar`")).toEqual([c1]);
      expect(await codesFound(e, "title:beira*")).toEqual([c1]);
      expect(await codesFound(e, "typologyCode:=x")).toEqual([]);
      expect(await codesFound(e, "typologyCode:!=x")).toEqual(sorted(c0, c1, c2, c3, c4, c5));
    });
  }
});
