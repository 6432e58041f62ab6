import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../../lib/errors/domain-errors";
import { compileFilter, compileFilterString, normalizeTokens, ParseError, parseFilter, type FilterNode, type FilterSchema } from "../../../lib/search/filter";

// The schema of search-language.md §1.8, plus `id`.
const schema: FilterSchema = {
  id: { type: "string", column: "id" },
  city: { type: "string", column: "city", tokens: "city_tok" },
  status: { type: "string", column: "status", tokens: "status_tok" },
  title: { type: "string", column: "title", tokens: "title_tok" },
  agent: { type: "string", column: "agent", tokens: "agent_tok" },
  tags: { type: "string[]", column: "tags", tokens: "tags_elems" },
  price: { type: "int64", column: "price" },
  bedrooms: { type: "int32", column: "bedrooms" },
  baths: { type: "float", column: "baths" },
  featured: { type: "bool", column: "featured" },
  location: { type: "geopoint", column: "location", lat: "lat", lng: "lng" },
};

const parse = (f: string) => parseFilter(f, schema);

function error(f: string): { message: string; pos: number } {
  try {
    parse(f);
  } catch (e) {
    if (e instanceof ParseError) return { message: e.message, pos: e.pos };
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(f)} to fail`);
}

/** Compact rendering of a tree's shape: `(a || b) && c` style with field names. */
function shape(n: FilterNode): string {
  if ("left" in n) return `(${shape(n.left)} ${n.kind === "and" ? "&&" : "||"} ${shape(n.right)})`;
  return n.field;
}

describe("normalizeTokens (§0)", () => {
  it("lowercases, splits on space and newline, deletes other ASCII, transliterates", () => {
    expect(normalizeTokens("AT&T")).toEqual(["att"]);
    expect(normalizeTokens("foo-bar")).toEqual(["foobar"]);
    expect(normalizeTokens("St. John's")).toEqual(["st", "johns"]);
    expect(normalizeTokens("a\tb c\nd  e")).toEqual(["ab", "c", "d", "e"]);
    expect(normalizeTokens("São Paulo, ÉCOLE Straße")).toEqual(["sao", "paulo", "ecole", "strasse"]);
    expect(normalizeTokens("Ωμέγα 東京 हिंदी")).toEqual(["ωμέγα", "東京", "हिंदी"]);
    expect(normalizeTokens("“quoted” — dash")).toEqual(["quoted", "dash"]);
    expect(normalizeTokens("x".repeat(150))).toEqual(["x".repeat(100)]);
    expect(normalizeTokens(" ... ")).toEqual([]);
  });
});

describe("§1.8 examples", () => {
  it.each([
    ["city:=Austin", { kind: "string", match: "exact", negate: false, values: [{ tokens: ["austin"], prefix: false }] }],
    ["city:Austin", { kind: "string", match: "contains", values: [{ tokens: ["austin"], prefix: false }] }],
    ["title:modern loft", { match: "contains", values: [{ tokens: ["modern", "loft"], prefix: false }] }],
    ["title:=`Loft (Downtown), Unit 5`", { match: "exact", values: [{ tokens: ["loft", "downtown", "unit", "5"], prefix: false }] }],
    ["status:[active, pending]", { match: "contains", values: [{ tokens: ["active"] }, { tokens: ["pending"] }] }],
    ["status:=[active, pending]", { match: "exact", negate: false, values: [{ tokens: ["active"] }, { tokens: ["pending"] }] }],
    ["status:!=archived", { match: "exact", negate: true, values: [{ tokens: ["archived"] }] }],
    ["status:!=[archived, deleted]", { match: "exact", negate: true, values: [{ tokens: ["archived"] }, { tokens: ["deleted"] }] }],
    ["agent:! smith", { match: "contains", negate: true, values: [{ tokens: ["smith"] }] }],
    ["tags:=[pool, garage]", { fieldType: "string[]", match: "exact", values: [{ tokens: ["pool"] }, { tokens: ["garage"] }] }],
    ["price:[200000..500000]", { kind: "number", negate: false, items: [{ op: "range", min: "200000", max: "500000" }] }],
    ["price:200000..500000", { kind: "number", items: [{ op: "range", min: "200000", max: "500000" }] }],
    [
      "price:[<100000, >1000000]",
      {
        negate: false,
        items: [
          { op: "<", value: "100000" },
          { op: ">", value: "1000000" },
        ],
      },
    ],
    [
      "price:!=[<100000, >1000000]",
      {
        negate: true,
        items: [
          { op: "<", value: "100000" },
          { op: ">", value: "1000000" },
        ],
      },
    ],
    ["featured:true", { kind: "bool", negate: false, values: [true] }],
    ["featured:!=true", { kind: "bool", negate: true, values: [true] }],
    ["location:(30.2672, -97.7431, 5 km)", { kind: "geo", shapes: [{ type: "circle", lat: 30.2672, lng: -97.7431, radiusMeters: 5000 }] }],
    [
      "location:(30.30,-97.80, 30.30,-97.70, 30.20,-97.70, 30.20,-97.80)",
      {
        kind: "geo",
        shapes: [
          {
            type: "polygon",
            vertices: [
              [30.3, -97.8],
              [30.3, -97.7],
              [30.2, -97.7],
              [30.2, -97.8],
            ],
          },
        ],
      },
    ],
    ["agent:=Jo*", { match: "exact", values: [{ tokens: ["jo"], prefix: true }] }],
    ["agent:Jo*", { match: "contains", values: [{ tokens: ["jo"], prefix: true }] }],
  ])("%s", (f, expected) => {
    expect(parse(f)).toMatchObject(expected);
  });

  it("#10 tags:=pool && tags:=garage is an AND of two element matches", () => {
    expect(parse("tags:=pool && tags:=garage")).toMatchObject({ kind: "and", left: { field: "tags" }, right: { field: "tags" } });
  });

  it("#15 bedrooms:>=3 && baths:>1.5", () => {
    expect(parse("bedrooms:>=3 && baths:>1.5")).toMatchObject({
      kind: "and",
      left: { kind: "number", fieldType: "int32", items: [{ op: ">=", value: "3" }] },
      right: { kind: "number", fieldType: "float", items: [{ op: ">", value: "1.5" }] },
    });
  });

  it("#20 ids are raw, lists and negation allowed", () => {
    expect(parse("id:[l_1, l_2] || id:!=l_3")).toMatchObject({
      kind: "or",
      left: { kind: "id", negate: false, ids: ["l_1", "l_2"] },
      right: { kind: "id", negate: true, ids: ["l_3"] },
    });
    expect(parse("id:*")).toMatchObject({ kind: "id", ids: "*", negate: false });
    expect(parse("id:!=*")).toMatchObject({ kind: "id", ids: "*", negate: true });
  });

  it("#21/#22 && and || have equal precedence, left to right; parentheses regroup", () => {
    expect(shape(parse("city:=Austin || city:=Dallas && price:<500000")!)).toBe("((city || city) && price)");
    expect(shape(parse("city:=Austin || (city:=Dallas && price:<500000)")!)).toBe("(city || (city && price))");
    expect(shape(parse("city:a && status:b || title:c && agent:d")!)).toBe("(((city && status) || title) && agent)");
    expect(shape(parse("((city:a))")!)).toBe("city");
  });
});

describe("clause cutting (§1.1)", () => {
  it("splits at the first colon and keeps single & and | inside values", () => {
    expect(parse("title:= https://example.com/1")).toMatchObject({ match: "exact", values: [{ tokens: ["httpsexamplecom1"] }] });
    expect(parse("title:=AT&T")).toMatchObject({ values: [{ tokens: ["att"] }] });
    // `a:1 & b:2` is ONE clause on `a` whose value is `1 & b:2`
    expect(parse("title:1 & agent:2")).toMatchObject({ field: "title", values: [{ tokens: ["1", "agent2"] }] });
  });

  it("backticks protect parentheses, commas, brackets, && and ||", () => {
    expect(parse("title:=`x && (y) || [z], w`")).toMatchObject({ kind: "string", values: [{ tokens: ["x", "y", "z", "w"] }] });
    expect(parse("tags:[`a, b`, c]")).toMatchObject({ values: [{ tokens: ["a", "b"] }, { tokens: ["c"] }] });
    expect(parse("tags:[`a\\`b`]")).toMatchObject({ values: [{ tokens: ["ab"] }] });
    // a `:(` inside backticks does not open a geo value (which would swallow the rest of the filter)
    expect(shape(parse("tags:[`a:(b`, `c:[(d`] && price:1")!)).toBe("(tags && price)");
    expect(parse("title:St. John's Cathedral, Denver, Colorado")).toMatchObject({
      values: [{ tokens: ["st", "johns", "cathedral", "denver", "colorado"] }],
    });
  });

  it("prefix: trailing * on the item as written; a backticked atom is literal", () => {
    expect(parse("agent:Chris P*")).toMatchObject({ values: [{ tokens: ["chris", "p"], prefix: true }] });
    expect(parse("agent:`Jo*`")).toMatchObject({ values: [{ tokens: ["jo"], prefix: false }] });
    expect(parse("agent:[`Jo*`]")).toMatchObject({ values: [{ tokens: ["jo"], prefix: true }] });
  });

  it("comparators on strings are punctuation; `:=` on other types is a no-op", () => {
    expect(parse("title:>=5")).toMatchObject({ kind: "string", match: "contains", values: [{ tokens: ["5"] }] });
    expect(parse("bedrooms:=24")).toEqual(parse("bedrooms:24"));
    expect(parse("featured:= true")).toMatchObject({ kind: "bool", values: [true] });
  });

  it("numeric lists mix values, comparators, ranges and != items", () => {
    expect(parse("bedrooms:[!=21, >30, 1 .. 2, 7]")).toMatchObject({
      items: [
        { op: "!=", value: "21" },
        { op: ">", value: "30" },
        { op: "range", min: "1", max: "2" },
        { op: "=", value: "7" },
      ],
    });
    expect(parse("bedrooms:>-3230")).toMatchObject({ items: [{ op: ">", value: "-3230" }] });
    expect(parse("price:9223372036854775807")).toMatchObject({ items: [{ value: "9223372036854775807" }] });
    expect(parse("baths:[.5, 1e3, -2]")).toMatchObject({ items: [{ value: "0.5" }, { value: "1000" }, { value: "-2" }] });
    expect(parse("price:[]")).toMatchObject({ items: [] });
    expect(parse("status:[]")).toMatchObject({ values: [] });
  });

  it("geo: lists, the newer syntax, closing vertex, both windings", () => {
    expect(parse("location:[(30.2, -97.7, 5 km), (40.7, -74.0, 2mi)]")).toMatchObject({
      shapes: [{ radiusMeters: 5000 }, { lat: 40.7, lng: -74, radiusMeters: 2 * 1609.34 }],
    });
    expect(parse("location:([30.2, -97.7], radius: 1.5 km, exact_filter_radius: 10 km)")).toMatchObject({
      shapes: [{ type: "circle", lat: 30.2, lng: -97.7, radiusMeters: 1500 }],
    });
    expect(parse("location:([0,0, 0,1, 1,1], exact_filter_radius: 7 km)")).toMatchObject({ shapes: [{ type: "polygon" }] });
    expect(parse("location:(0,0, 0,1, 1,1, 0,0)")).toMatchObject({
      shapes: [
        {
          vertices: [
            [0, 0],
            [0, 1],
            [1, 1],
          ],
        },
      ],
    });
    expect(parse("location:(1,1, 0,1, 0,0)")).toMatchObject({ shapes: [{ type: "polygon" }] });
  });

  it("an empty or all-space filter is no filter", () => {
    expect(parse("")).toBeNull();
    expect(parse("   ")).toBeNull();
    expect(parse(" \t\n ")).toBeNull();
    expect(compileFilterString("  ", schema)).toBeUndefined();
  });
});

describe("errors (§1.7): Typesense message and position", () => {
  it.each([
    ["timestamps abcdef", "Could not parse the filter query.", 0],
    ["BLAH", "Could not parse the filter query.", 0],
    ["price:1 && BLAH", "Could not parse the filter query.", 11],
    ["(price:1", "Could not parse the filter query: unbalanced parentheses.", 0],
    ["price:1)", "Could not parse the filter query: unbalanced parentheses.", 7],
    ["price:1 &&", "Could not parse the filter query: unbalanced `&&` operands.", 8],
    ["&& price:1", "Could not parse the filter query: unbalanced `&&` operands.", 0],
    ["price:1 || ", "Could not parse the filter query: unbalanced `||` operands.", 8],
    ["(price:1) & featured:true", "Could not parse the filter filter_query.", 10],
    ["price:1 && | featured:true", "Could not parse the filter filter_query.", 11],
    ["()", "Filter query cannot be empty.", 0],
    ["(price:1)(featured:true)", "Could not parse the filter query.", 10],
    ["foo:1", "Could not find a filter field named `foo` in the schema.", 0],
    ["price:1 || tenantId:=other", "Could not find a filter field named `tenantId` in the schema.", 11],
    ["constructor:1", "Could not find a filter field named `constructor` in the schema.", 0],
    ["__proto__:=x", "Could not find a filter field named `__proto__` in the schema.", 0],
    ["bedrooms:", "Error with filter field `bedrooms`: Numerical field has an invalid comparator.", 9],
    ["bedrooms: abc", "Error with filter field `bedrooms`: Numerical field has an invalid comparator.", 10],
    ["bedrooms:`21`", "Error with filter field `bedrooms`: Numerical field has an invalid comparator.", 9],
    ['bedrooms:"100"', "Error with filter field `bedrooms`: Numerical field has an invalid comparator.", 9],
    ["bedrooms:!5", "Error with filter field `bedrooms`: Numerical field has an invalid comparator.", 9],
    ["bedrooms:<= foo", "Error with filter field `bedrooms`: Not an int32.", 12],
    ["bedrooms: 100.34", "Error with filter field `bedrooms`: Not an int32.", 10],
    ["bedrooms:[1, 2.5]", "Error with filter field `bedrooms`: Not an int32.", 13],
    ["bedrooms:2230070399", "Error with filter field `bedrooms`: `2230070399` exceeds the range of an int32.", 9],
    ["bedrooms:1..x", "Error with filter field `bedrooms`: Not an int32.", 12],
    ["price:1.5", "Error with filter field `price`: Not an int64.", 6],
    ["price:9223372036854775808", "Error with filter field `price`: Not an int64.", 6],
    ["baths:>x", "Error with filter field `baths`: Not a float.", 7],
    ["baths:1e39", "Error with filter field `baths`: Not a float.", 6],
    ["tags:", "Error with filter field `tags`: Filter value cannot be empty.", 5],
    ["tags:=", "Error with filter field `tags`: Filter value cannot be empty.", 6],
    ["tags:!=", "Error with filter field `tags`: Filter value cannot be empty.", 7],
    ["tags:``", "Error with filter field `tags`: Filter value cannot be empty.", 5],
    ["tags:[a,,b]", "Error with filter field `tags`: Filter value cannot be empty.", 8],
    ["tags:...", "Error with filter field `tags`: Filter value cannot be empty.", 5],
    ["tags:*", "Error with filter field `tags`: Filter value cannot be empty.", 5],
    ["featured:yes", "Value of filter field `featured` must be `true` or `false`.", 9],
    ["featured:TRUE", "Value of filter field `featured` must be `true` or `false`.", 9],
    ["featured:!true", "Value of filter field `featured` must be `true` or `false`.", 9],
    ["featured:[true, nope]", "Values of filter field `featured`: must be `true` or `false`.", 16],
    ["location:(1, 2)", "Value of filter field `location`: must be in the `(-44.50, 170.29, 0.75 km)` or (56.33, -65.97, 23.82, -127.82) format.", 9],
    ["location:(x, 2, 3 km)", "Value of filter field `location`: must be in the `(-44.50, 170.29, 0.75 km)` or (56.33, -65.97, 23.82, -127.82) format.", 10],
    ["location:(95, 2, 3 km)", "Value of filter field `location`: must be in the `(-44.50, 170.29, 0.75 km)` or (56.33, -65.97, 23.82, -127.82) format.", 10],
    ["location:(1, 2, 3 yd)", "Unit must be either `km` or `mi`.", 18],
    ["location:(1, 2, 3 KM)", "Unit must be either `km` or `mi`.", 18],
    [
      "location:([1, 2])",
      "Value of filter field `location`: must be in the `([-44.50, 170.29], radius: 0.75 km, exact_filter_radius: 5 km)` or ([56.33, -65.97, 23.82, -127.82], exact_filter_radius: 7 km) format.",
      9,
    ],
    ["location:(0,0, 0,1, 0,0, 1,1)", "Polygon is invalid: Loop 0: Duplicate vertices: 0 and 2", 9],
    ["location:(0,0, 0,1, 0,1)", "Polygon is invalid: Loop 0: Edge 1 is degenerate (duplicate vertex)", 9],
    ["location:(0,0, 1,1, 0,1, 1,0)", "Polygon is invalid: Loop 0: Edge 0 crosses edge 2", 9],
    ["location:(0,0, 0,1)", "Polygon is invalid: Loop 0: Non-empty, non-full loops must have at least 3 vertices", 9],
    ["location:(0,0, 0,1, 0,2)", "Polygon is invalid: Loop 0: Polygon has zero area", 9],
    [
      "location:[(1,2,3 km) (4,5,6 km)]",
      "Value of filter field `location`: must be in the `(-44.50, 170.29, 0.75 km)` or (56.33, -65.97, 23.82, -127.82) format.",
      21,
    ],
    ["ingredients.{name:=cheese && concentration:<50}", "Filtering on nested object fields (`field.{...}`) is not supported.", 0],
    ["a.{b:1 && c.{d:1}}", "Nested object filters are not supported.", 12],
    ["price:1 && $Coll(x:=1)", "Join filters (`$Collection(...)`) are not supported.", 11],
    ["!$Coll(x:=1)", "Join filters (`$Collection(...)`) are not supported.", 0],
  ])("%s", (f, message, pos) => {
    expect(error(f)).toEqual({ message, pos });
  });

  it("reports paren errors before clause errors, and clause errors in postfix order (like Typesense)", () => {
    expect(error("foo:1 && (bar:2").message).toMatch(/unbalanced parentheses/);
    expect(error("foo:1 && bar:2")).toEqual({ message: "Could not find a filter field named `foo` in the schema.", pos: 0 });
  });

  it("caps operands + operators at 100", () => {
    const clauses = (n: number) => Array.from({ length: n }, (_, i) => `price:${i}`).join(" && ");
    expect(parse(clauses(50))).not.toBeNull(); // 50 operands + 49 operators = 99
    const over = clauses(51); // 101
    expect(error(over)).toEqual({ message: "`filter_by` has too many operations. Maximum allowed: 100.", pos: over.lastIndexOf("price") });
  });

  it("caps the number of values", () => {
    const list = `id:[${Array.from({ length: 1001 }, (_, i) => `x${i}`).join(",")}]`;
    expect(error(list).message).toBe("`filter_by` has too many values. Maximum allowed: 1000.");
  });

  it("toDomainError: a 400 invalid_filter carrying message and position", () => {
    let caught: unknown;
    try {
      compileFilterString("price:1 && foo:1", schema);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({
      kind: "invalid",
      code: "invalid_filter",
      message: "filter: Could not find a filter field named `foo` in the schema. (at position 11)",
    });
  });
});

describe("hostile input never reaches the SQL text", () => {
  const dialect = new PgDialect();
  const hostile = ["x' OR '1'='1", 'x" OR "1"="1', "x; DROP TABLE t; --", "x /* c */ y", "$1 $$ $tag$", "back\\slash", "ünï©ødé ☃ 🏠", "50%_off"];

  it.each(hostile)("%s", (v) => {
    const filters = [`title:=${v}`, `title:${v}*`, `tags:[${v}, ${v}z*]`, `tags:!${v}`, `id:[${v}]`, `id:!=${v}`];
    for (const f of filters) {
      const ast = parse(f);
      if (!ast) throw new Error("unexpected empty filter");
      const q = dialect.sqlToQuery(compileFilter(ast, schema));
      expect(q.sql).not.toContain(v);
      // Our own SQL only ever quotes identifiers ("title_tok") and the one literal ' '; after removing those,
      // no quote, comment, statement separator, backslash, dollar quote or non-ASCII character may remain.
      const scrubbed = q.sql.replace(/"[a-z_]+"/g, "").replaceAll("' '", "");
      expect(scrubbed).not.toMatch(/['";\\]|--|\/\*|\$(?!\d)|[^\x00-\x7f]/);
      expect(q.params.length).toBeGreaterThan(0);
    }
  });

  it("rejects injection attempts through syntax", () => {
    expect(error("x:1 || true").message).toBe("Could not find a filter field named `x` in the schema.");
    expect(error("price:1 || true").message).toBe("Could not parse the filter query.");
    expect(error("price:1; DROP TABLE t").message).toMatch(/invalid comparator/);
    expect(error("price:1 -- comment").message).toMatch(/invalid comparator/);
    expect(error("featured:true OR 1=1").message).toMatch(/must be `true` or `false`/);
  });
});

/**
 * Malformed filters Typesense would take with a 200 (hardening issue, defect 7): each is a 400 with
 * the position of the mistake, and the well-formed neighbours still parse.
 */
describe("malformed input is refused with its position", () => {
  it.each([
    ["city:=`Sao Paulo", "Unterminated backtick", 6],
    ["city:=`Sao Paulo` && title:`x && price:1", "Unterminated backtick", 27],
    ["tags:=[`pool", "Unterminated backtick", 7],
    ["city:=[Sao Paulo, Rio", "the list opened with `[` is not closed with `]`", 6],
    ["tags:!=[a, b", "the list opened with `[` is not closed with `]`", 7],
    ["price:[1..3", "the list opened with `[` is not closed with `]`", 6],
    ["featured:[true", "the list opened with `[` is not closed with `]`", 9],
    ["location:(-23.5, -46.6, -5 km)", "A distance must not be negative", 24],
    ["location:([-23.5, -46.6], radius: -1 mi)", "A distance must not be negative", 34],
  ])("%s", (f, message, pos) => {
    const e = error(f);
    expect(e.message).toContain(message);
    expect(e.pos).toBe(pos);
  });

  it("still takes closed quotes, escaped backticks in lists, a literal [ inside backticks, and a zero radius", () => {
    expect(parse("city:=`Sao Paulo`")).toMatchObject({ values: [{ tokens: ["sao", "paulo"] }] });
    expect(parse("tags:[`a\\`b`]")).toMatchObject({ values: [{ tokens: ["ab"] }] });
    expect(parse("title:=`[draft`")).toMatchObject({ values: [{ tokens: ["draft"] }] });
    expect(parse("location:(-23.5, -46.6, 0 km)")).toMatchObject({ shapes: [{ radiusMeters: 0 }] });
  });
});
