import { sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { beforeAll, describe, expect, it } from "vitest";
import { compileFilterString, normalizeElement, normalizeTokens, storedElements, storedTokens, type FilterSchema } from "../../../lib/search/filter";

/**
 * Compiled filters executed on a real PostgreSQL (PGlite, in memory) against a small table with accents, NULLs,
 * empty values and edge numbers. Each expectation lists the ids a filter must return, from the token
 * arrays and from the compact columns alike.
 */

const schema: FilterSchema = {
  id: { type: "string", column: "t.id" },
  title: { type: "string", column: "title", tokens: "title_tok" },
  city: { type: "string", column: "city", tokens: "city_tok" },
  status: { type: "string", column: "status", tokens: "status_tok" },
  agent: { type: "string", column: "agent", tokens: "agent_tok" },
  tags: { type: "string[]", column: "tags", tokens: "tags_elems" },
  price: { type: "int64", column: "price" },
  bedrooms: { type: "int32", column: "bedrooms" },
  baths: { type: "float", column: "baths" },
  featured: { type: "bool", column: "featured" },
  location: { type: "geopoint", column: "location", lat: "lat", lng: "lng" },
};

const R = 6371010;
const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const north = (m: number) => AUSTIN.lat + (m / R) * (180 / Math.PI); // due north of Austin by m metres

type Row = [
  id: string,
  title: string | null,
  city: string | null,
  status: string | null,
  agent: string | null,
  tags: string[] | null,
  price: string | null,
  bedrooms: number | null,
  baths: number | null,
  featured: boolean | null,
  lat: number | null,
  lng: number | null,
];
// prettier-ignore
const rows: Row[] = [
  ["l01", "Modern Loft (Downtown), Unit 5", "Austin", "active", "John Smith", ["pool", "garage"], "450000", 3, 2.5, true, AUSTIN.lat, AUSTIN.lng],
  ["l02", "Cozy house", "South Austin", "pending", "Joanna Doe", ["Pool Side", "garden"], "250000", 2, 1.5, false, 30.25, -97.78],
  ["l03", "Apartamento em São Paulo", "São Paulo", "archived", "José Álvarez", ["piscina", "churrasqueira"], "1200000", 4, 3, true, -23.5505, -46.6333],
  ["l04", "AT&T building loft", "AUSTIN, TX", null, null, null, null, null, null, null, null, null],
  ["l05", "Dallas duplex", "Dallas", "deleted", "Steve Jobs", [], "99999", 1, 1.1, false, 32.7767, -96.797],
  ["l06", "Cardiology - Interventional Cardiology", "Dallas", "active", "Adam Stator", ["garage"], "1000000", 5, 1, true, 30.31, -97.75],
  ["l07", "foo-bar", "Houston", "Active", "Chris Pratt", ["pool", "spa", "garage door"], "100000", -5, 0, false, 29.7604, -95.3698],
  ["l08", "Straße", "Newfoundland", "active", "Samuel L. Jackson", ["Pool"], "9007199254740993", 2147483647, 1000, null, north(4999), AUSTIN.lng],
  ["l09", "", "Papua New Guinea", "", "", [""], "0", 0, -0.5, false, north(5001), AUSTIN.lng],
  ["l10", "Ünïcödé ÅÇÉ", "Dallas", "pending", "Ana", ["Pool", "Spa"], "300000", 2, 2, true, 30.22, -97.72],
  ["l11", "Fiji hut", "Suva", "active", "Bula", ["beach"], "150000", 1, 1, false, -17, -179.5],
];
const ALL = rows.map((r) => r[0]);
const except = (...ids: string[]) => ALL.filter((id) => !ids.includes(id));

// The file's own database (test/setup): PGlite in memory, or PostgreSQL in the CI pass that sets DATABASE_URL,
// where parameter serialisation differs (postgres.js once turned a string 'true' typed boolean into false).
let db: Db;

const textArray = (a: string[] | null): SQL =>
  a === null
    ? sql`NULL`
    : sql`ARRAY[${sql.join(
        a.map((v) => sql`${v}::text`),
        sql`, `,
      )}]::text[]`;
const tok = (s: string | null) => (s === null ? null : normalizeTokens(s));

beforeAll(async () => {
  db = await getDb();
  await db.execute(sql`CREATE TABLE t (
    id text PRIMARY KEY, title text, title_tok text[], city text, city_tok text[], status text, status_tok text[],
    agent text, agent_tok text[], tags text[], tags_elems text[], price bigint, bedrooms integer, baths real,
    featured boolean, lat double precision, lng double precision)`);
  for (const [id, title, city, status, agent, tags, price, bedrooms, baths, featured, lat, lng] of rows) {
    await db.execute(sql`INSERT INTO t VALUES (${id}, ${title}, ${textArray(tok(title))}, ${city}, ${textArray(tok(city))},
      ${status}, ${textArray(tok(status))}, ${agent}, ${textArray(tok(agent))}, ${textArray(tags)},
      ${textArray(tags === null ? null : tags.map(normalizeElement))}, ${price}::bigint, ${bedrooms}::integer, ${baths}::real,
      ${featured}::boolean, ${lat}::double precision, ${lng}::double precision)`);
  }
  // The same rows stored as the search tables store them (storedTokens, storedElements).
  await db.execute(sql`CREATE TABLE t_compact (
    id text PRIMARY KEY, title text, title_tok text, city text, city_tok text, status text, status_tok text,
    agent text, agent_tok text, tags text[], tags_elems text[], price bigint, bedrooms integer, baths real,
    featured boolean, lat double precision, lng double precision)`);
  const stored = (s: string | null) => (s === null ? null : storedTokens(s));
  for (const [id, title, city, status, agent, tags, price, bedrooms, baths, featured, lat, lng] of rows) {
    await db.execute(sql`INSERT INTO t_compact VALUES (${id}, ${title}, ${stored(title)}, ${city}, ${stored(city)},
      ${status}, ${stored(status)}, ${agent}, ${stored(agent)}, ${textArray(tags)},
      ${textArray(tags && storedElements(tags))}, ${price}::bigint, ${bedrooms}::integer, ${baths}::real,
      ${featured}::boolean, ${lat}::double precision, ${lng}::double precision)`);
  }
});

const compactSchema: FilterSchema = Object.fromEntries(Object.entries(schema).map(([name, f]) => [name, f.tokens ? { ...f, derived: true } : f]));

async function ids(filter: string, compact = false): Promise<string[]> {
  const where = compileFilterString(filter, compact ? compactSchema : schema) ?? sql`true`;
  const res = await db.execute(sql`SELECT t.id FROM ${sql.raw(compact ? "t_compact" : "t")} AS t WHERE ${where} ORDER BY t.id`);
  return rowsOf<{ id: string }>(res).map((r) => r.id);
}

/** Every case runs on both stores: token arrays, and the compact columns the search tables use (copies only where SQL cannot derive them). */
function cases(table: Array<[string, string[]]>) {
  it.each(table)("%s", async (filter, expected) => {
    expect(await ids(filter)).toEqual([...expected].sort());
    expect(await ids(filter, true), "compact tokens").toEqual([...expected].sort());
  });
}

describe("string", () => {
  cases([
    ["city:=Austin", ["l01"]],
    ["city:Austin", ["l01", "l02", "l04"]],
    ["city:New", ["l09"]],
    ["city:new*", ["l08", "l09"]],
    ["city:=SAO paulo", ["l03"]],
    ["city:=São-Paulo", []],
    ["title:modern loft", ["l01"]],
    ["title:loft", ["l01", "l04"]],
    ["title:=`Modern Loft (Downtown), Unit 5`", ["l01"]],
    ["title:=att building loft", ["l04"]],
    ["title:AT&T", ["l04"]],
    ["title:= Interventional Cardiology", []],
    ["title:=cardiology interventional cardiology", ["l06"]],
    ["title:foobar", ["l07"]],
    ["title:strasse", ["l08"]],
    ["title:unicode ace", ["l10"]],
    ["status:[active, pending]", ["l01", "l02", "l06", "l07", "l08", "l10", "l11"]],
    ["status:=[active, pending]", ["l01", "l02", "l06", "l07", "l08", "l10", "l11"]],
    ["status:!=archived", except("l03")],
    ["status:!=[archived, deleted]", except("l03", "l05")],
    ["status:[]", []],
    ["status:!=[]", ALL],
    ["agent:! smith", except("l01")],
    ["agent:= samuel l. Jackson", ["l08"]],
    ["agent: samuel johnson", []],
    ["agent:jackson samuel", ["l08"]],
    ["agent:=Jo*", ["l01", "l02", "l03"]],
    ["agent:Jo*", ["l01", "l02", "l03", "l05"]],
    ["agent:=S*", ["l05", "l08"]],
    ["agent:=Steve J*", ["l05"]],
    ["agent:Chris P*", ["l07"]],
    ["agent:P*", ["l07"]],
    ["agent:!Jo*", except("l01", "l02", "l03", "l05")],
    ["agent:!=Jo*", except("l01", "l02", "l03")],
    ["agent:=[ana, bula]", ["l10", "l11"]],
    ["agent:[`Jo*`, bula]", ["l01", "l02", "l03", "l05", "l11"]],
  ]);
});

describe("string[]", () => {
  cases([
    ["tags:=pool && tags:=garage", ["l01"]],
    ["tags:=[pool, garage]", ["l01", "l06", "l07", "l08", "l10"]],
    ["tags:pool", ["l01", "l02", "l07", "l08", "l10"]],
    ["tags:pool door", ["l07"]], // tokens from different elements
    ["tags:=pool door", []],
    ["tags:=GARAGE-door", []],
    ["tags:=garage door", ["l07"]],
    ["tags:!=pool", ["l02", "l03", "l04", "l05", "l06", "l09", "l11"]],
    ["tags:gar*", ["l01", "l02", "l06", "l07"]],
    ["tags:=garage d*", ["l07"]],
    ["tags:=pool s*", ["l02"]],
    ["tags:![pool, garage]", ["l03", "l04", "l05", "l09", "l11"]],
    ["tags:!=[pool, garage]", ["l02", "l03", "l04", "l05", "l09", "l11"]],
    ["tags:[]", []],
  ]);
});

describe("numbers", () => {
  cases([
    ["price:[200000..500000]", ["l01", "l02", "l10"]],
    ["price:200000 .. 500000", ["l01", "l02", "l10"]],
    ["price:[<100000, >1000000]", ["l03", "l05", "l08", "l09"]],
    ["price:!=[<100000, >1000000]", ["l01", "l02", "l04", "l06", "l07", "l10", "l11"]],
    ["price:9007199254740993", ["l08"]], // beyond 2^53: bound as text, compared as bigint
    ["price:9007199254740992", []],
    ["price:[0, 99999..100000]", ["l05", "l07", "l09"]],
    ["price:!=0", except("l09")],
    ["price:=>=1000000", ["l03", "l06", "l08"]],
    ["price:[]", []],
    ["price:!=[]", ALL],
    ["bedrooms:>=3 && baths:>1.5", ["l01", "l03", "l08"]],
    ["bedrooms:[!=2, >30]", except("l02", "l10")],
    ["bedrooms:>-3230", except("l04")],
    ["bedrooms:<0", ["l07"]],
    ["bedrooms:2147483647", ["l08"]],
    ["bedrooms:=2", ["l02", "l10"]],
    ["baths:1.1", ["l05"]], // float32 parity: a `real` 1.1 equals the filter's 1.1
    ["baths:<=1", ["l06", "l07", "l09", "l11"]],
    ["baths:[-1..0]", ["l07", "l09"]],
    ["baths:!=1", except("l06", "l11")],
    ["baths:>=1e3", ["l08"]],
  ]);
});

describe("bool and id", () => {
  cases([
    ["featured:true", ["l01", "l03", "l06", "l10"]],
    ["featured:!=true", ["l02", "l04", "l05", "l07", "l08", "l09", "l11"]],
    ["featured:=false", ["l02", "l05", "l07", "l09", "l11"]],
    ["featured:[true, false]", except("l04", "l08")],
    ["featured:!=[true, false]", ["l04", "l08"]],
    ["id:[l01, l02] || id:!=l03", except("l03")],
    ["id:[l01, nope, 00000000-0000-0000-0000-000000000000]", ["l01"]],
    ["id:`l05`", ["l05"]],
    ["id:*", ALL],
    ["id:!=*", []],
    ["id:[]", []],
  ]);
});

describe("boolean structure", () => {
  cases([
    // left to right: (Dallas || Austin) && price < 300000
    ["city:=Dallas || city:=Austin && price:<300000", ["l05"]],
    ["city:=Dallas || (city:=Austin && price:<300000)", ["l05", "l06", "l10"]],
    ["((city:=Dallas)) && (featured:true || bedrooms:1)", ["l05", "l06", "l10"]],
    // complements keep NULL rows (l04 has no status and no featured flag)
    ["status:!=active && featured:!=true", ["l02", "l04", "l05", "l09"]],
  ]);
});

describe("geo", () => {
  const square = [
    [30.3, -97.8],
    [30.3, -97.7],
    [30.2, -97.7],
    [30.2, -97.8],
  ];
  const poly = (pts: number[][]) => `location:(${pts.map((p) => p.join(", ")).join(", ")})`;
  cases([
    ["location:(30.2672, -97.7431, 5 km)", ["l01", "l02", "l06", "l08"]], // l08 at 4999 m in, l09 at 5001 m out
    ["location:(30.2672, -97.7431, 3.1 mi)", ["l01", "l02", "l06"]], // 4988.95 m
    ["location:([30.2672, -97.7431], radius: 5 km)", ["l01", "l02", "l06", "l08"]],
    ["location:[(30.2672, -97.7431, 1 km), (-17, -179.5, 1km)]", ["l01", "l11"]],
    ["location:[]", []],
    [poly(square), ["l01", "l02", "l10"]], // clockwise
    [poly([...square].reverse()), ["l01", "l02", "l10"]], // counter-clockwise
    [poly([...square, square[0]]), ["l01", "l02", "l10"]], // explicit closing vertex
    // concave L: the notch (where l01 lies) is outside
    [
      poly([
        [30.2, -97.8],
        [30.3, -97.8],
        [30.3, -97.76],
        [30.24, -97.76],
        [30.24, -97.7],
        [30.2, -97.7],
      ]),
      ["l02", "l10"],
    ],
    // crosses the antimeridian around Fiji
    [
      poly([
        [-16, 179],
        [-16, -179],
        [-18, -179],
        [-18, 179],
      ]),
      ["l11"],
    ],
    ["location:([-16, 179, -16, -179, -18, -179, -18, 179])", ["l11"]],
  ]);
});

describe("domain errors", () => {
  it("bad filters are 400 invalid_filter, not database errors", () => {
    expect(() => compileFilterString("price:abc", schema)).toThrowError(
      "filter: Error with filter field `price`: Numerical field has an invalid comparator. (at position 6)",
    );
  });
});
