import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../../lib/errors/domain-errors";
import { compileFilterString, normalizeElement, normalizeTokens, type FilterSchema } from "../../../lib/search/filter";

/**
 * Property-based tests. (1) Any input, well-formed or garbage, either compiles to SQL that PostgreSQL executes
 * without error, or fails with the 400 domain error; nothing else may escape. (2) The SQL text never depends on
 * the values in the filter: they only travel as parameters.
 */

const schema: FilterSchema = {
  id: { type: "string", column: "id" },
  title: { type: "string", column: "title", tokens: "title_tok" },
  tags: { type: "string[]", column: "tags", tokens: "tags_elems" },
  price: { type: "int64", column: "price" },
  beds: { type: "int32", column: "beds" },
  baths: { type: "float", column: "baths" },
  featured: { type: "bool", column: "featured" },
  location: { type: "geopoint", column: "location", lat: "lat", lng: "lng" },
};

let pg: PGlite;
let db: ReturnType<typeof drizzle>;
const dialect = new PgDialect();

beforeAll(async () => {
  pg = new PGlite();
  db = drizzle({ client: pg });
  await db.execute(sql`CREATE TABLE t (id uuid PRIMARY KEY, title text, title_tok text[], tags text[], tags_elems text[],
    price bigint, beds integer, baths real, featured boolean, lat double precision, lng double precision)`);
  const rows: Array<[string, string | null, string[] | null, string | null, number | null, number | null, boolean | null, number | null, number | null]> = [
    ["00000000-0000-4000-8000-000000000001", "Café de l'Été", ["Pool", "garage door"], "-9223372036854775808", -2147483648, -1.5, true, -90, -180],
    ["00000000-0000-4000-8000-000000000002", "x' OR 1=1 --", [], "9223372036854775807", 2147483647, 3.4e38, false, 90, 180],
    ["00000000-0000-4000-8000-000000000003", null, null, null, null, null, null, null, null],
    ["00000000-0000-4000-8000-000000000004", "loft", [""], "0", 0, 0, false, 30.2, -97.7],
  ];
  for (const [id, title, tags, price, beds, baths, featured, lat, lng] of rows) {
    const arr = (a: string[] | null) =>
      a === null
        ? sql`NULL`
        : sql`ARRAY[${sql.join(
            a.map((v) => sql`${v}::text`),
            sql`, `,
          )}]::text[]`;
    await db.execute(sql`INSERT INTO t VALUES (${id}::uuid, ${title}, ${arr(title === null ? null : normalizeTokens(title))},
      ${arr(tags)}, ${arr(tags === null ? null : tags.map(normalizeElement))}, ${price}::bigint, ${beds}::integer, ${baths}::real,
      ${featured}::boolean, ${lat}::double precision, ${lng}::double precision)`);
  }
});

afterAll(async () => {
  await pg?.close();
});

/** Compiles and runs `filter`; returns "ok" or "400", and fails the property on anything else. */
async function outcome(filter: string): Promise<"ok" | "400"> {
  let where: ReturnType<typeof compileFilterString>;
  try {
    where = compileFilterString(filter, schema);
  } catch (e) {
    if (!(e instanceof DomainError)) throw new Error(`non-domain error for ${JSON.stringify(filter)}: ${String(e)}`);
    expect(e.kind).toBe("invalid");
    expect(e.code).toBe("invalid_filter");
    const pos = Number(/\(at position (\d+)\)$/.exec(e.message)?.[1] ?? NaN);
    expect(pos).toBeGreaterThanOrEqual(0);
    expect(pos).toBeLessThanOrEqual(filter.length);
    return "400";
  }
  // Any database error here (bad cast, out of range, syntax) fails the property.
  await db.execute(sql`SELECT count(*) FROM t WHERE ${where ?? sql`true`}`);
  return "ok";
}

// ---- a small grammar of plausible filters, with hostile text mixed into the values ----
const hostile = fc.constantFrom(
  "'",
  '"',
  ";",
  "--",
  "/*",
  "*/",
  "$1",
  "\\",
  "`",
  "\\`",
  "%",
  "_",
  "é",
  "☃",
  "🏠",
  "\n",
  "\t",
  "(",
  ")",
  "[",
  "]",
  ",",
  ":",
  "&",
  "|",
  "&&",
  "||",
  "!",
  "=",
  "*",
  "..",
  " ",
);
const word = fc.oneof(fc.constantFrom("pool", "Garage", "café", "LOFT", "door", "x", "Été"), fc.string({ maxLength: 6 }));
const text = fc.array(fc.oneof(word, hostile), { minLength: 0, maxLength: 5 }).map((a) => a.join(""));
const int = fc.oneof(fc.integer({ min: -2147483648, max: 2147483647 }).map(String), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String));
const float = fc.oneof(fc.double({ noNaN: true }).map(String), fc.constantFrom("1e-50", "3.5e38", ".5", "1e3", "-0", "inf", "1.5.2"));
const num = fc.oneof(int, float, text);
const numItem = fc.oneof(
  num,
  fc.tuple(fc.constantFrom("<", "<=", ">", ">=", "!="), num).map(([o, n]) => o + n),
  fc.tuple(num, num).map(([a, b]) => `${a}..${b}`),
);
const list = <T extends string>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 4 }).map((xs) => `[${xs.join(", ")}]`);
// Integers scaled down: fc.double concentrates near 0, which would make nearly every polygon degenerate.
const lat = fc.integer({ min: -950_000, max: 950_000 }).map((n) => (n / 10_000).toFixed(4));
const lng = fc.integer({ min: -1_850_000, max: 1_850_000 }).map((n) => (n / 10_000).toFixed(4));
const circle = fc
  .tuple(lat, lng, fc.double({ min: 0, max: 20000, noNaN: true }), fc.constantFrom("km", "mi", " km", "yd"))
  .map(([a, b, r, u]) => `(${a}, ${b}, ${r}${u})`);
const polygon = fc.array(fc.tuple(lat, lng), { minLength: 2, maxLength: 6 }).map((ps) => `(${ps.map((p) => p.join(", ")).join(", ")})`);
const newer = fc.tuple(lat, lng, fc.integer({ min: 0, max: 50 })).map(([a, b, r]) => `([${a}, ${b}], radius: ${r} km)`);

const clause = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("title", "tags"),
      fc.constantFrom("", "=", "!=", "!", " "),
      fc.oneof(
        text,
        list(text),
        text.map((t) => `\`${t}\``),
        text.map((t) => `${t}*`),
      ),
    )
    .map(([f, o, v]) => `${f}:${o}${v}`),
  fc.tuple(fc.constantFrom("price", "beds", "baths"), fc.constantFrom("", "=", "!="), fc.oneof(numItem, list(numItem))).map(([f, o, v]) => `${f}:${o}${v}`),
  fc
    .tuple(fc.constantFrom("", "=", "!="), fc.oneof(fc.constantFrom("true", "false", "TRUE", "1"), list(fc.constantFrom("true", "false", "no"))))
    .map(([o, v]) => `featured:${o}${v}`),
  fc.oneof(circle, polygon, newer, list(fc.oneof(circle, polygon))).map((v) => `location:${v}`),
  fc.tuple(fc.constantFrom("", "=", "!="), fc.oneof(text, list(text), fc.constant("*"), fc.uuid())).map(([o, v]) => `id:${o}${v}`),
  fc.tuple(fc.constantFrom("tenantId", "constructor", "__proto__", "x.{a:1}", "$C(a:1)"), text).map(([f, v]) => `${f}:${v}`),
);
const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    clause,
    tie("expr").map((e) => `(${e})`),
    fc.tuple(tie("expr"), fc.constantFrom(" && ", " || ", "&&", "||", " & ", " | ", " "), tie("expr")).map(([a, op, b]) => a + op + b),
  ),
}));
const garbage = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc
    .array(fc.oneof(hostile, fc.constantFrom("title", "price", "featured", "location", "id", "tags", "true", "1", "(1,2,3 km)")), { maxLength: 20 })
    .map((a) => a.join("")),
);

describe("normalizeTokens", () => {
  it("is idempotent, and tokens hold no separator or ASCII punctuation (they travel space-joined in one parameter)", () => {
    const input = fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }), text);
    fc.assert(
      fc.property(input, (s) => {
        const tokens = normalizeTokens(s);
        expect(normalizeTokens(tokens.join(" "))).toEqual(tokens);
        for (const t of tokens) {
          expect(t).not.toMatch(/[\x00-\x2f\x3a-\x60\x7b-\x7f]/);
          expect(t.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("compile-or-400 (never any other exception, never a database error)", () => {
  it("grammar-shaped filters", async () => {
    const seen = { ok: 0, "400": 0 };
    await fc.assert(
      fc.asyncProperty(expr, async (f) => void seen[await outcome(f)]++),
      { numRuns: 1500 },
    );
    // The generator must exercise both sides (typically ~25% compile and run, ~75% are 400s).
    expect(seen.ok).toBeGreaterThan(150);
    expect(seen["400"]).toBeGreaterThan(150);
  });

  it("garbage strings", async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (f) => void (await outcome(f))),
      { numRuns: 1000 },
    );
  });
});

/** Typesense trims with C `isspace`, not JavaScript's Unicode-aware `trim`. */
const asciiTrim = (s: string) => s.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");

describe("values never reach the SQL text", () => {
  const render = (f: string) => dialect.sqlToQuery(compileFilterString(f, schema)!);
  // Backticks delimit the value and `*` would switch to prefix SQL: drop them so the form stays the same.
  const value = fc.oneof(text, fc.string({ unit: "binary", maxLength: 30 })).map((v) => v.replace(/[`*]/g, ""));
  const forms: Array<(v: string) => string> = [
    (v) => `title:=\`${v}\``,
    (v) => `title:\`${v}\``,
    (v) => `title:!=\`${v}\``,
    (v) => `tags:=\`${v}\``,
    (v) => `tags:!\`${v}\``,
  ];

  it.each(forms.map((form, i) => [i, form] as const))("form %i: SQL text is value-independent", (_i, form) => {
    const reference = render(form("reference")).sql;
    fc.assert(
      fc.property(value, (v) => {
        const tokens = normalizeTokens(v);
        fc.pre(tokens.length > 0); // no tokens = "Filter value cannot be empty." (covered above)
        const q = render(form(v));
        expect(q.sql).toBe(reference);
        if (!reference.includes(v)) expect(q.sql).not.toContain(v);
        expect(q.params).toContain(tokens.join(" ")); // the value went in as a parameter, normalized
      }),
      { numRuns: 400 },
    );
  });

  it("lists: the text depends only on the number of items; ids are parameters too", () => {
    // No backslash: `\`` inside a list is an escaped backtick (split_to_values), which would change the items.
    const item = value.map((v) => v.replace(/\\/g, "")).filter((v) => normalizeTokens(v).length > 0);
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), (items) => {
        const f = (xs: string[]) => `tags:[${xs.map((x) => `\`${x}\``).join(", ")}] || id:[${xs.map((x) => `\`${x}\``).join(", ")}]`;
        const ids = items.map(asciiTrim);
        fc.pre(!ids.includes("*") && ids.every((v) => v.length > 0));
        const q = render(f(items));
        expect(q.sql).toBe(render(f(items.map((_, i) => `ref${i}`))).sql);
        for (const v of ids) expect(q.params).toContain(v);
      }),
      { numRuns: 300 },
    );
  });
});
