/**
 * The Typesense engine's translations, without a Typesense server: collection schema, documents, `filter_by`
 * (exact strings, hostile values, a parse-back round trip with our own parser), the scope wrapping, search
 * parameters, response and error mapping. The engine's HTTP flow runs against a small fake Typesense started on
 * 127.0.0.1 (the official client talks to it for real).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { Errors } from "typesense";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../../lib/errors/domain-errors";
import { toErrorResponse } from "../../../lib/http/errors";
import type { SearchScope } from "../../../lib/search/engine";
import { FILTER_SCHEMA, SEARCH_FIELDS } from "../../../lib/search/fields";
import { normalizeElement, normalizeTokens, parseFilter, type FilterNode, type GeoShape, type LeafNode } from "../../../lib/search/filter";
import { toSearchRequest } from "../../../lib/search/params";
import { isPriceHidden, PRICE_FIELDS, priceMaskOf, withoutPrice } from "../../../lib/search/price-visibility";
import { ACCESS_FIELD_NAMES, collectionFields, collectionSchema, PUBLIC_PRICE_FIELD_NAMES } from "../../../lib/search/typesense/collection-schema";
import {
  buildFilterBy,
  FilterSerializeError,
  filterToString,
  MATCH_EVERYTHING,
  MATCH_NOTHING,
  plainDecimal,
  SCOPE_SCHEMA,
  scopeToAst,
  scopeToFilter,
} from "../../../lib/search/typesense/filter-to-string";
import {
  documentOf,
  fromTypesense,
  searchErrorFor,
  textMatchOf,
  toSearchError,
  TypesenseServiceError,
  type TypesenseSearchResponse,
} from "../../../lib/search/typesense/from-typesense";
import { buildQuery, buildSortBy, toSearchParams } from "../../../lib/search/typesense/to-search-params";
import { toTypesenseDoc } from "../../../lib/search/typesense/to-typesense-doc";
import { nodeFromUrl, TypesenseSearchEngine } from "../../../lib/search/typesense/typesense-engine";

const T1 = "6f1c2d3e-0000-4000-8000-00000000a001";
const T2 = "6f1c2d3e-0000-4000-8000-00000000b002";
const U1 = "6f1c2d3e-0000-4000-8000-0000000000c1";
const N1 = "6f1c2d3e-0000-4000-8000-0000000000e1";
const N2 = "6f1c2d3e-0000-4000-8000-0000000000e2";
const tok = (uuid: string) => normalizeTokens(uuid).join(" ");

const parse = (f: string) => parseFilter(f, FILTER_SCHEMA);
const ser = (f: string) => filterToString(parse(f)!);

/** The AST without positions (they depend on the text, not the meaning). */
function stripPos(n: unknown): unknown {
  if (Array.isArray(n)) return n.map(stripPos);
  if (n && typeof n === "object") {
    return Object.fromEntries(
      Object.entries(n)
        .filter(([k]) => k !== "pos")
        .map(([k, v]) => [k, stripPos(v)]),
    );
  }
  return n;
}

// ==================================================================== schema

describe("collection schema", () => {
  const fields = collectionFields();
  const byName = new Map(fields.map((f) => [f.name, f]));

  it("has every SEARCH_FIELDS entry with the registry's type and facet, optional except createdAt", () => {
    for (const f of SEARCH_FIELDS) {
      const c = byName.get(f.name);
      expect(c, f.name).toBeDefined();
      expect(c!.type, f.name).toBe(f.type);
      expect(c!.facet, f.name).toBe(Boolean(f.facet));
      expect(c!.optional, f.name).toBe(f.name === "createdAt" ? undefined : true);
      const sortableString = (f.type === "string" || f.type === "string[]") && f.sort;
      expect(c!.sort, f.name).toBe(sortableString ? true : undefined);
    }
    expect(byName.get("location_city")).toEqual({ name: "location_city", type: "string", facet: true, optional: true, sort: true });
    expect(byName.get("description")).toEqual({ name: "description", type: "string", facet: false, optional: true });
    expect(byName.get("createdAt")).toEqual({ name: "createdAt", type: "int64", facet: false });
    expect(byName.get("features")).toEqual({ name: "features", type: "string[]", facet: true, optional: true });
  });

  it("adds the geopoint and the access fields, never declares `id`, sorts by createdAt", () => {
    expect(byName.get("location")).toEqual({ name: "location", type: "geopoint", optional: true });
    expect(byName.get("tenant_id")).toEqual({ name: "tenant_id", type: "string", facet: true });
    for (const n of ["assigned_to_id", "created_by_id", "property_created_by_id"]) expect(byName.get(n)).toEqual({ name: n, type: "string", optional: true });
    expect(byName.get("network_ids")).toEqual({ name: "network_ids", type: "string[]", optional: true });
    expect(byName.has("id")).toBe(false); // implicit in Typesense; declaring it is ignored with a warning
    expect(PUBLIC_PRICE_FIELD_NAMES).toEqual(["price_public", "typologyBasePrice_public", "typologyPricePerSqm_public"]);
    expect(byName.get("price_public")).toEqual({ name: "price_public", type: "float", facet: true, optional: true });
    expect(byName.get("typologyBasePrice_public")).toEqual({ name: "typologyBasePrice_public", type: "float", facet: false, optional: true });
    expect(fields.length).toBe(SEARCH_FIELDS.length + 1 + ACCESS_FIELD_NAMES.length + PUBLIC_PRICE_FIELD_NAMES.length);
    expect(new Set(fields.map((f) => f.name)).size).toBe(fields.length);
    const s = collectionSchema("listings_x");
    expect(s).toMatchObject({ name: "listings_x", default_sorting_field: "createdAt" });
  });

  it("covers every field the filter allow-list can name", () => {
    for (const name of Object.keys(FILTER_SCHEMA)) if (name !== "id") expect(byName.has(name), name).toBe(true);
    // ...and none of the access fields is filterable by users.
    for (const n of [...ACCESS_FIELD_NAMES, ...PUBLIC_PRICE_FIELD_NAMES]) expect(Object.hasOwn(FILTER_SCHEMA, n)).toBe(false);
  });
});

// ==================================================================== documents

/** A search document shaped like buildSearchDocument's output (every registry field, plus display-only keys). */
function sampleDoc(over: Record<string, unknown> = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.name, null]));
  Object.assign(doc, {
    id: "7a0e1b2c-0000-4000-8000-000000000001",
    title: "Apartamento claro em Pinheiros",
    description: "Perto do metrô",
    listingType: "sale",
    propertyType: "apartment",
    location_city: "São Paulo",
    location_neighborhood: "Pinheiros",
    visibility: "public",
    stage: "active",
    features: ["Varanda", "Churrasqueira"],
    propertyFeatures: ["balcony", "barbecue"],
    buildingAmenities: [],
    price: 900000,
    bedrooms: 2,
    totalArea: 72.5,
    photoCount: 3,
    hasPhotos: true,
    isPrimaryMarket: false,
    createdAt: 1767225600,
    updatedAt: 1767312000,
    location_latitude: -23.5665,
    location_longitude: -46.6915,
    priceFormatted: "R$ 900.000,00",
    primaryImageUrl: null,
    imageUrls: ["https://img/1.jpg"],
    videoUrl: null,
    ...over,
  });
  return doc;
}
const access = { tenantId: T1, assignedToId: U1, createdById: null, propertyCreatedById: U1, networkIds: [N1] };

describe("toTypesenseDoc", () => {
  it("builds the Typesense document: id, location, access fields, registry nulls dropped", () => {
    const d = toTypesenseDoc(sampleDoc(), access);
    expect(d.id).toBe("7a0e1b2c-0000-4000-8000-000000000001");
    expect(d.location).toEqual([-23.5665, -46.6915]);
    expect(d).not.toHaveProperty("location_latitude");
    expect(d).not.toHaveProperty("location_longitude");
    expect(d).toMatchObject({ tenant_id: T1, assigned_to_id: U1, property_created_by_id: U1, network_ids: [N1] });
    expect(d).not.toHaveProperty("created_by_id");
    expect(d).not.toHaveProperty("occupancyStatus"); // registry field, null: dropped (optional)
    expect(d).not.toHaveProperty("publishedAt");
    expect(d.primaryImageUrl).toBeNull(); // not a registry field: stored as is
    expect(d).toMatchObject({ price: 900000, bedrooms: 2, totalArea: 72.5, hasPhotos: true, features: ["Varanda", "Churrasqueira"], buildingAmenities: [] });
  });

  it("coerces numbers and bools, omits location unless both coordinates exist, refuses a missing createdAt", () => {
    const d = toTypesenseDoc(sampleDoc({ price: "1200000.50", bedrooms: "3", hasVideo: "true", listingCode: 42, location_longitude: null }), access);
    expect(d).toMatchObject({ price: 1200000.5, bedrooms: 3, hasVideo: true, listingCode: "42" });
    expect(d).not.toHaveProperty("location");
    expect(toTypesenseDoc(sampleDoc({ location_latitude: "-23.5", location_longitude: "-46.6" }), access).location).toEqual([-23.5, -46.6]);
    expect(() => toTypesenseDoc(sampleDoc({ createdAt: null }), access)).toThrow(/no createdAt/);
    expect(() => toTypesenseDoc(sampleDoc({ id: null }), access)).toThrow(/no id/);
  });

  it("never lets the document carry its own access fields", () => {
    const d = toTypesenseDoc(sampleDoc({ tenant_id: T2, network_ids: [N2], assigned_to_id: "someone" }), { ...access, assignedToId: null });
    expect(d.tenant_id).toBe(T1);
    expect(d.network_ids).toEqual([N1]);
    expect(d).not.toHaveProperty("assigned_to_id");
  });

  it("round-trips: the hit document equals the stored document", () => {
    const doc = sampleDoc();
    expect(documentOf(toTypesenseDoc(doc, access))).toEqual(doc);
    const noGeo = sampleDoc({ location_latitude: null, location_longitude: null });
    expect(documentOf(toTypesenseDoc(noGeo, access))).toEqual(noGeo);
  });
});

// ==================================================================== filter_by: exact strings

describe("filterToString: every leaf kind", () => {
  it("strings: contains, exact, negations, lists, prefixes (in brackets), string[]", () => {
    expect(ser("location_city:Austin")).toBe("location_city:`austin`");
    expect(ser("location_city:=Austin")).toBe("location_city:=`austin`");
    expect(ser("location_city:!=Austin")).toBe("location_city:!=`austin`");
    expect(ser("location_city:! smith")).toBe("location_city:!`smith`");
    expect(ser("title:modern loft")).toBe("title:`modern loft`");
    expect(ser("location_city:=[Austin, São Paulo]")).toBe("location_city:=[`austin`, `sao paulo`]");
    expect(ser("location_city:!=[archived, deleted]")).toBe("location_city:!=[`archived`, `deleted`]");
    expect(ser("title:Jo*")).toBe("title:[`jo*`]");
    expect(ser("title:=Steve R*")).toBe("title:=[`steve r*`]");
    expect(ser("title:=`Jo*`")).toBe("title:=`jo`"); // a backticked atom is literal: not a prefix
    expect(ser("title:=[`Jo*`, casa]")).toBe("title:=[`jo*`, `casa`]");
    expect(ser("title:=`Loft (Downtown), Unit 5`")).toBe("title:=`loft downtown unit 5`");
    expect(ser("title:=AT&T")).toBe("title:=`att`");
    expect(ser("features:=[Pool, garage door]")).toBe("features:=[`pool`, `garage door`]");
    expect(ser("features:=pool && features:=garage")).toBe("(features:=`pool` && features:=`garage`)");
    expect(ser("title:[]")).toBe(MATCH_NOTHING);
    expect(ser("title:!=[]")).toBe(MATCH_EVERYTHING);
  });

  it("numbers: comparators, ranges, lists, NOT IN, int64 and float canonical text", () => {
    expect(ser("bedrooms:3")).toBe("bedrooms:3");
    expect(ser("bedrooms:=3")).toBe("bedrooms:3");
    expect(ser("bedrooms:!=3")).toBe("bedrooms:!=3");
    for (const op of ["<", "<=", ">", ">="]) expect(ser(`bedrooms:${op}3`)).toBe(`bedrooms:${op}3`);
    expect(ser("bedrooms:-3..-1")).toBe("bedrooms:[-3..-1]");
    expect(ser("price:[200000..500000]")).toBe("price:[200000..500000]");
    expect(ser("price:[<100000, >1000000, 15..50, 800]")).toBe("price:[<100000, >1000000, 15..50, 800]");
    expect(ser("price:!=[<100000, >1000000]")).toBe("price:!=[<100000, >1000000]");
    expect(ser("bedrooms:[!=21, >30]")).toBe("bedrooms:[!=21, >30]");
    expect(ser("createdAt:>=9223372036854775807")).toBe("createdAt:>=9223372036854775807");
    expect(ser("totalArea:>1.5")).toBe("totalArea:>1.5");
    expect(ser("totalArea:1.1")).toBe("totalArea:1.100000023841858"); // float32, as Typesense compares
    expect(ser("totalArea:<1e-7")).toBe("totalArea:<0.00000010000000116860974"); // never an exponent
    expect(ser("price:>3e38")).toBe("price:>300000000549775580000000000000000000000");
    expect(ser("bedrooms:[]")).toBe(MATCH_NOTHING);
    expect(plainDecimal("1e+21")).toBe("1000000000000000000000");
    expect(plainDecimal("-1.25e-3")).toBe("-0.00125");
    expect(plainDecimal("-0")).toBe("0");
  });

  it("refuses numbers that are not canonical or out of the field's range (a bug, not user input)", () => {
    const leaf = (fieldType: "int32" | "int64" | "float", field: string, value: string): FilterNode => ({
      kind: "number",
      field,
      fieldType,
      negate: false,
      pos: 0,
      items: [{ op: "=", value }],
    });
    expect(() => filterToString(leaf("int32", "bedrooms", "2147483648"))).toThrow(FilterSerializeError);
    expect(() => filterToString(leaf("int32", "bedrooms", "2.5"))).toThrow(/not an integer/);
    expect(() => filterToString(leaf("int64", "createdAt", "9223372036854775808"))).toThrow(/int64 range/);
    expect(() => filterToString(leaf("float", "price", "1 || id:*"))).toThrow(/not a float/);
    expect(() => filterToString(leaf("float", "price", "Infinity"))).toThrow(/not a float/);
    expect(() => filterToString(leaf("int64", "bedrooms", "1"))).toThrow(/is a int32/);
  });

  it("bools: literals, lists, negations in forms every server version reads", () => {
    expect(ser("hasPhotos:true")).toBe("hasPhotos:true");
    expect(ser("hasPhotos:=false")).toBe("hasPhotos:false");
    expect(ser("hasPhotos:[false, true]")).toBe("hasPhotos:[true, false]");
    expect(ser("hasPhotos:!=true")).toBe("hasPhotos:!=true");
    expect(ser("hasPhotos:!=[true]")).toBe("hasPhotos:!=true");
    expect(ser("hasPhotos:!=[true, false]")).toBe("(hasPhotos:!=true && hasPhotos:!=false)");
    expect(ser("hasPhotos:[]")).toBe(MATCH_NOTHING);
    expect(ser("hasPhotos:!=[]")).toBe(MATCH_EVERYTHING);
  });

  it("geo: circles in km (metres converted), polygons, lists; negative radius matches nothing", () => {
    expect(ser("location:(30.2672, -97.7431, 5 km)")).toBe("location:(30.2672, -97.7431, 5 km)");
    expect(ser("location:(30.2672, -97.7431, 750 km)")).toBe("location:(30.2672, -97.7431, 750 km)");
    expect(ser("location:(48.85, 2.34, 1 mi)")).toBe("location:(48.85, 2.34, 1.60934 km)");
    expect(ser("location:([48.85, 2.34], radius: 2 km)")).toBe("location:(48.85, 2.34, 2 km)");
    expect(ser("location:(30.30,-97.80, 30.30,-97.70, 30.20,-97.70, 30.20,-97.80)")).toBe("location:(30.3, -97.8, 30.3, -97.7, 30.2, -97.7, 30.2, -97.8)");
    expect(ser("location:[(1, 2, 3 km), (10, 10, 10, 11, 11, 11)]")).toBe("location:[(1, 2, 3 km), (10, 10, 10, 11, 11, 11)]");
    // The parser refuses a negative radius; an AST that has one still serializes to "nothing".
    expect(filterToString({ kind: "geo", field: "location", pos: 0, shapes: [{ type: "circle", lat: 1, lng: 2, radiusMeters: -3000 }] })).toBe(MATCH_NOTHING);
    expect(ser("location:(1, 2, 99999999 km)")).toBe("location:(1, 2, 20016 km)"); // covers the sphere anyway
    expect(filterToString({ kind: "geo", field: "location", pos: 0, shapes: [{ type: "circle", lat: 1e-7, lng: 2, radiusMeters: 1500 }] })).toBe(
      "location:(0.0000001, 2, 1.5 km)",
    );
  });

  it("ids: raw ids in a list, `*`, and ids that cannot exist dropped", () => {
    expect(ser("id:abc-1")).toBe("id:[`abc-1`]");
    expect(ser("id:[l_1, l_2]")).toBe("id:[`l_1`, `l_2`]");
    expect(ser("id:!=[l_1, l_2]")).toBe("id:!=[`l_1`, `l_2`]");
    expect(ser("id:*")).toBe(MATCH_EVERYTHING);
    expect(ser("id:!=*")).toBe(MATCH_NOTHING); // `id:!=*` itself needs v28+
    expect(ser("id:[`x), y`, ok]")).toBe("id:[`ok`]");
    expect(ser("id:[`a b`]")).toBe(MATCH_NOTHING);
    expect(ser("id:!=[`a b`]")).toBe(MATCH_EVERYTHING);
  });

  it("parenthesises every binary node, keeping the left-to-right grouping", () => {
    expect(ser("location_city:=Austin || location_city:=Dallas && price:<500000")).toBe(
      "((location_city:=`austin` || location_city:=`dallas`) && price:<500000)",
    );
    expect(ser("location_city:=Austin || (location_city:=Dallas && price:<500000)")).toBe(
      "(location_city:=`austin` || (location_city:=`dallas` && price:<500000))",
    );
    expect(ser("(bedrooms:1) && (hasPhotos:true || (id:x && title:y))")).toBe("(bedrooms:1 && (hasPhotos:true || (id:[`x`] && title:`y`)))");
  });

  it("accepts only fields of the schema it is given, with the matching type", () => {
    const leaf = (field: string, fieldType: "string" | "string[]" = "string"): FilterNode => ({
      kind: "string",
      field,
      fieldType,
      match: "exact",
      negate: false,
      pos: 0,
      values: [{ tokens: ["x"], prefix: false }],
    });
    expect(() => filterToString(leaf("tenant_id"))).toThrow(/not in the schema/); // an access field, in a user filter
    expect(() => filterToString(leaf("nope"))).toThrow(/not in the schema/);
    expect(() => filterToString(leaf("__proto__"))).toThrow(/not in the schema/);
    expect(() => filterToString(leaf("price"))).toThrow(/is a float/);
    expect(() => filterToString(leaf("features"))).toThrow(/the leaf says string/);
    expect(filterToString(leaf("tenant_id"), SCOPE_SCHEMA)).toBe("tenant_id:=`x`");
    expect(() => filterToString({ kind: "id", field: "title", negate: false, ids: ["a"], pos: 0 })).toThrow(/id leaf/);
    expect(() => filterToString({ kind: "bool", field: "price", negate: false, values: [true], pos: 0 })).toThrow(/is a float/);
  });
});

// ==================================================================== hostile values and the scope

const allScope: SearchScope = { tenantId: T1, access: { kind: "all" }, networkIds: [] };
const brokerScope: SearchScope = { tenantId: T1, access: { kind: "restricted", userId: U1 }, networkIds: [N1, N2] };
const siteScope: SearchScope = { tenantId: T1, access: { kind: "all" }, networkIds: [N1], publicOnly: { activeStage: "active" } };

describe("the scope filter", () => {
  it("is the tenant alone, or tenant + access, OR shared public listings, then the public-surface filter", () => {
    expect(scopeToFilter(allScope)).toBe(`tenant_id:=\`${tok(T1)}\``);
    expect(scopeToFilter(brokerScope)).toBe(
      `((tenant_id:=\`${tok(T1)}\` && (((visibility:=\`public\` || assigned_to_id:=\`${tok(U1)}\`) || created_by_id:=\`${tok(U1)}\`) || property_created_by_id:=\`${tok(U1)}\`))` +
        ` || (((tenant_id:!=\`${tok(T1)}\` && network_ids:=[\`${tok(N1)}\`, \`${tok(N2)}\`]) && visibility:=\`public\`) && on_air:true))`,
    );
    expect(scopeToFilter(siteScope)).toBe(
      `(((tenant_id:=\`${tok(T1)}\` || (((tenant_id:!=\`${tok(T1)}\` && network_ids:=\`${tok(N1)}\`) && visibility:=\`public\`) && on_air:true))` +
        ` && visibility:=\`public\`) && stage:=\`active\`)`,
    );
  });

  it("wraps the user's filters as (<scope>) && ((f1) && (f2)): `|| everything` cannot widen it", () => {
    const widen = parse("title:x || id:*")!;
    const typed = parse("hasPhotos:true")!;
    const s = buildFilterBy(brokerScope, [typed, widen]);
    expect(s).toBe(`(${scopeToFilter(brokerScope)}) && ((hasPhotos:true) && ((title:\`x\` || ${MATCH_EVERYTHING})))`);
    const back = parseFilter(s, SCOPE_SCHEMA)!;
    expect(back.kind).toBe("and");
    if (back.kind !== "and") return;
    expect(stripPos(back.left)).toEqual(stripPos(scopeToAst(brokerScope)));
    expect(buildFilterBy(allScope, [])).toBe(`(tenant_id:=\`${tok(T1)}\`)`);
  });

  it("refuses scope ids that are not UUIDs, and quotes the stage", () => {
    expect(() => scopeToFilter({ ...allScope, tenantId: `${T1}\` || tenant_id:* || x:\`` })).toThrow(/tenantId must be a UUID/);
    expect(() => scopeToFilter({ ...allScope, tenantId: T1.replace(/-/g, "") })).toThrow(FilterSerializeError); // would equal T1 once normalized
    expect(() => scopeToFilter({ ...brokerScope, access: { kind: "restricted", userId: "u`) || (id:*" } })).toThrow(/userId must be a UUID/);
    expect(() => scopeToFilter({ ...allScope, networkIds: [N1, "n`]"] })).toThrow(/networkIds must be a UUID/);
    const evil: SearchScope = { ...allScope, publicOnly: { activeStage: "active` || id:* || stage:`x" } };
    const s = scopeToFilter(evil);
    expect(s).toBe(`((tenant_id:=\`${tok(T1)}\` && visibility:=\`public\`) && stage:=\`active id stagex\`)`);
    expect(stripPos(parseFilter(s, SCOPE_SCHEMA))).toEqual(stripPos(scopeToAst(evil)));
    expect(() => scopeToFilter({ ...allScope, publicOnly: { activeStage: "``" } })).toThrow(/activeStage is empty/);
  });
});

/** Every backtick span of a produced filter holds only letters, digits, spaces and a final `*`. */
function quotedSpansAreClean(s: string): boolean {
  const spans = s.split("`").filter((_, i) => i % 2 === 1);
  return s.split("`").length % 2 === 1 && spans.every((x) => /^[\p{L}\p{M}\p{N} ]+\*?$/u.test(x));
}

describe("hostile string values cannot leave their backticks", () => {
  const hostile = [
    "a` || id:* || title:`b",
    "x`) || (tenant_id:=`other",
    "a && b || c",
    "(x), [y], {z}",
    "back\\`slash\\",
    "geo:(1, 2, 3 km)",
    "`",
    "new\nline\ttab",
    "*",
    "comma, separated, `value`",
  ];

  it.each(hostile)("%j stays one leaf on its field, under the scope", (raw) => {
    // Tokens as raw as a careless AST builder could make them (the parser would have normalized them).
    const leaf: FilterNode = {
      kind: "string",
      field: "title",
      fieldType: "string",
      match: "exact",
      negate: false,
      pos: 0,
      values: [
        { tokens: raw.split(" "), prefix: false },
        { tokens: ["ok"], prefix: true },
      ],
    };
    let s: string;
    try {
      s = buildFilterBy(brokerScope, [leaf]);
    } catch (e) {
      expect(e).toBeInstanceOf(FilterSerializeError); // nothing left after cleaning
      return;
    }
    expect(quotedSpansAreClean(s)).toBe(true);
    const back = parseFilter(s, SCOPE_SCHEMA)!;
    expect(back.kind).toBe("and");
    if (back.kind !== "and") return;
    expect(stripPos(back.left)).toEqual(stripPos(scopeToAst(brokerScope)));
    expect(back.right).toMatchObject({ kind: "string", field: "title", match: "exact", negate: false });
    expect((back.right as LeafNode & { values: unknown[] }).values).toHaveLength(2);
  });

  it("holds for any string (fast-check)", () => {
    const chars = fc.constantFrom("`", "\\", "|", "&", "(", ")", ",", ":", "*", "[", "]", "=", "!", " ", "\n", "a", "b", "é", "1", "$", "{", "}");
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: chars, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom("title", "features"),
        (tokens, prefix, field) => {
          const leaf: FilterNode = {
            kind: "string",
            field,
            fieldType: field === "title" ? "string" : "string[]",
            match: "contains",
            negate: true,
            pos: 0,
            values: [{ tokens, prefix }],
          };
          let s: string;
          try {
            s = buildFilterBy(siteScope, [leaf]);
          } catch (e) {
            return e instanceof FilterSerializeError;
          }
          if (!quotedSpansAreClean(s)) return false;
          const back = parseFilter(s, SCOPE_SCHEMA)!;
          return (
            back.kind === "and" &&
            JSON.stringify(stripPos(back.left)) === JSON.stringify(stripPos(scopeToAst(siteScope))) &&
            back.right.kind === "string" &&
            back.right.field === field &&
            back.right.negate
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

// ==================================================================== round trip through our parser (fast-check)

/** Reference semantics of an AST on one document (search-language.md §1.3-§1.6, as compile-sql.ts implements them). */
type Doc = Record<string, unknown>;
const R = 6371010;
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}
function inPolygon(lat: number, lng: number, v: Array<[number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = v.length - 1; i < v.length; j = i++) {
    const [yi, xi] = v[i];
    const [yj, xj] = v[j];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
function evalNode(n: FilterNode, d: Doc): boolean {
  switch (n.kind) {
    case "and":
      return evalNode(n.left, d) && evalNode(n.right, d);
    case "or":
      return evalNode(n.left, d) || evalNode(n.right, d);
    case "string": {
      const v = d[n.field];
      const positive = () => {
        if (v === null || v === undefined) return false;
        return n.values.some((val) => {
          const joined = val.tokens.join(" ");
          if (n.match === "exact") {
            const elems = Array.isArray(v) ? (v as string[]).map(normalizeElement) : [normalizeTokens(String(v)).join(" ")];
            return elems.some((e) => (val.prefix ? e.startsWith(joined) : e === joined));
          }
          const all = Array.isArray(v) ? (v as string[]).flatMap((e) => normalizeTokens(e)) : normalizeTokens(String(v));
          const whole = val.prefix ? val.tokens.slice(0, -1) : val.tokens;
          const last = val.tokens[val.tokens.length - 1];
          return whole.every((t) => all.includes(t)) && (!val.prefix || all.some((t) => t.startsWith(last)));
        });
      };
      return n.negate ? !positive() : positive();
    }
    case "number": {
      const raw = d[n.field];
      const has = typeof raw === "number";
      const f = (x: number | string) => (n.fieldType === "float" ? Math.fround(Number(x)) : Number(x));
      const v = has ? f(raw as number) : NaN;
      const positive = n.items.some((it) => {
        if (it.op === "!=") return !(has && v === f(it.value));
        if (!has) return false;
        if (it.op === "range") return v >= f(it.min) && v <= f(it.max);
        const x = f(it.value);
        return it.op === "=" ? v === x : it.op === "<" ? v < x : it.op === "<=" ? v <= x : it.op === ">" ? v > x : v >= x;
      });
      return n.negate ? !positive : positive;
    }
    case "bool": {
      const v = d[n.field];
      const positive = typeof v === "boolean" && n.values.includes(v);
      return n.negate ? !positive : positive;
    }
    case "geo": {
      const lat = d.location_latitude;
      const lng = d.location_longitude;
      if (typeof lat !== "number" || typeof lng !== "number") return false;
      return n.shapes.some((s) => (s.type === "circle" ? haversine(s.lat, s.lng, lat, lng) <= s.radiusMeters : inPolygon(lat, lng, s.vertices)));
    }
    case "id": {
      const positive = n.ids === "*" || n.ids.includes(String(d.id));
      return n.negate ? !positive : positive;
    }
  }
}

/** Reference scope semantics (scope-sql.ts), on the document's access fields. */
function inScope(s: SearchScope, d: Doc): boolean {
  const access =
    s.access.kind === "all" || d.visibility === "public" || [d.assigned_to_id, d.created_by_id, d.property_created_by_id].includes(s.access.userId);
  const own = d.tenant_id === s.tenantId && access;
  const shared =
    d.tenant_id !== s.tenantId && (d.network_ids as string[]).some((n) => s.networkIds.includes(n)) && d.visibility === "public" && d.on_air === true;
  return (own || shared) && (!s.publicOnly || (d.visibility === "public" && d.stage === s.publicOnly.activeStage));
}

const VOCAB = ["casa", "jo", "joao", "sao", "paulo", "apto", "x1", "vista", "mar"];
const words = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 3 });
const phrase = words.map((w) => w.join(" "));
const IDS = ["a1", "b2", "c3", "d-4"];

const docArb: fc.Arbitrary<Doc> = fc.record({
  id: fc.constantFrom(...IDS),
  title: fc.option(phrase, { nil: null }),
  location_city: fc.option(phrase, { nil: null }),
  features: fc.option(fc.array(phrase, { maxLength: 3 }), { nil: null }),
  price: fc.option(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0.1, 1.5, 2.25)), { nil: null }),
  bedrooms: fc.option(fc.integer({ min: -3, max: 5 }), { nil: null }),
  createdAt: fc.integer({ min: 0, max: 6 }),
  hasPhotos: fc.option(fc.boolean(), { nil: null }),
  location_latitude: fc.option(fc.double({ min: -5, max: 5, noNaN: true }), { nil: null }),
  location_longitude: fc.double({ min: -5, max: 5, noNaN: true }),
  tenant_id: fc.constantFrom(T1, T2),
  assigned_to_id: fc.constantFrom(U1, null),
  created_by_id: fc.constantFrom(U1, null),
  property_created_by_id: fc.constantFrom(U1, null),
  network_ids: fc.subarray([N1, N2]),
  visibility: fc.constantFrom("public", "private"),
  priceVisibility: fc.constantFrom("public", "private", null),
  stage: fc.constantFrom("active", "draft"),
  on_air: fc.boolean(),
});

/** What the parser produces for a number: canonical text (float32 for floats). */
const canon = (type: "int32" | "int64" | "float", x: number) => (type === "float" ? String(Math.fround(x)) : String(Math.trunc(x)));

function leafArb(faithful: boolean): fc.Arbitrary<FilterNode> {
  const minValues = faithful ? 1 : 0;
  const str = fc
    .record({
      f: fc.constantFrom(["title", "string"], ["location_city", "string"], ["features", "string[]"]),
      match: fc.constantFrom("contains", "exact"),
      negate: fc.boolean(),
      values: fc.array(fc.record({ tokens: words, prefix: fc.boolean() }), { minLength: minValues, maxLength: 3 }),
    })
    .map(
      ({ f, match, negate, values }): FilterNode => ({
        kind: "string",
        field: f[0],
        fieldType: f[1] as "string" | "string[]",
        match: match as "contains" | "exact",
        negate,
        values,
        pos: 0,
      }),
    );
  const num = fc
    .record({
      f: fc.constantFrom(["price", "float"], ["bedrooms", "int32"], ["createdAt", "int64"]),
      negate: fc.boolean(),
      items: fc.array(
        fc.record({
          op: fc.constantFrom("=", "!=", "<", "<=", ">", ">=", "range"),
          a: fc.constantFrom(-3, -1, 0, 0.1, 1, 1.5, 2, 4),
          b: fc.constantFrom(-1, 0, 2.25, 3, 5),
        }),
        { minLength: minValues, maxLength: 3 },
      ),
    })
    .map(({ f, negate, items }): FilterNode => {
      const type = f[1] as "int32" | "int64" | "float";
      return {
        kind: "number",
        field: f[0],
        fieldType: type,
        negate,
        pos: 0,
        items: items.map((it) =>
          it.op === "range" ? { op: "range" as const, min: canon(type, it.a), max: canon(type, it.b) } : { op: it.op as "=", value: canon(type, it.a) },
        ),
      };
    });
  const bool = fc
    .record({ negate: fc.boolean(), values: faithful ? fc.constantFrom<boolean[]>([true], [false], [true, false]) : fc.subarray([true, false, true]) })
    .filter((b) => !faithful || !b.negate || b.values.length === 1)
    .map(({ negate, values }): FilterNode => ({ kind: "bool", field: "hasPhotos", negate, values: [...values], pos: 0 }));
  const shape: fc.Arbitrary<GeoShape> = fc.oneof(
    fc
      .record({
        lat: fc.double({ min: -5, max: 5, noNaN: true }),
        lng: fc.double({ min: -5, max: 5, noNaN: true }),
        radiusMeters: faithful ? fc.integer({ min: 0, max: 800_000 }) : fc.oneof(fc.integer({ min: -1000, max: 800_000 }), fc.constant(1e12)),
      })
      .map((c) => ({ type: "circle" as const, ...c })),
    fc
      .record({
        lat: fc.double({ min: -4, max: 4, noNaN: true }),
        lng: fc.double({ min: -4, max: 4, noNaN: true }),
        r: fc.double({ min: 0.2, max: 3, noNaN: true }),
      })
      .map(({ lat, lng, r }) => ({
        type: "polygon" as const,
        vertices: [0, 2, 4].map((k) => [lat + r * Math.sin((k * Math.PI) / 3), lng + r * Math.cos((k * Math.PI) / 3)] as [number, number]),
      })),
  );
  const geo = fc.array(shape, { minLength: minValues, maxLength: 2 }).map((shapes): FilterNode => ({ kind: "geo", field: "location", shapes, pos: 0 }));
  const id = fc
    .record({
      negate: fc.boolean(),
      ids: faithful
        ? fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 3 })
        : fc.oneof(fc.constant("*" as const), fc.array(fc.constantFrom(...IDS, "no such", "x`y"), { maxLength: 3 })),
    })
    .map(({ negate, ids }): FilterNode => ({ kind: "id", field: "id", negate, ids: Array.isArray(ids) ? [...new Set(ids)] : ids, pos: 0 }));
  return fc.oneof(str, num, bool, geo, id);
}

function astArb(faithful: boolean): fc.Arbitrary<FilterNode> {
  const { node } = fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leafArb(faithful),
      fc.record({ kind: fc.constantFrom("and" as const, "or" as const), left: tie("node"), right: tie("node") }).map((b): FilterNode => ({ ...b, pos: 0 })),
    ),
  }));
  return node;
}

/** Geo radius travels in km as decimal text; compare it with a relative tolerance. */
function sameAst(a: FilterNode, b: FilterNode): boolean {
  const norm = (n: unknown): unknown => {
    const x = stripPos(n) as Record<string, unknown>;
    if (x && x.kind === "geo") {
      return { ...x, shapes: (x.shapes as GeoShape[]).map((s) => (s.type === "circle" ? { ...s, radiusMeters: Math.round(s.radiusMeters * 1e6) / 1e6 } : s)) };
    }
    if (x && (x.kind === "and" || x.kind === "or")) return { ...x, left: norm((n as { left: unknown }).left), right: norm((n as { right: unknown }).right) };
    if (x && x.kind === "bool") return { ...x, values: [...new Set(x.values as boolean[])].sort() };
    return x;
  };
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

describe("round trip through our own parser (fast-check)", () => {
  it("faithful ASTs come back identical (tokens, prefixes, operators, numbers, shapes, ids)", () => {
    fc.assert(
      fc.property(astArb(true), (ast) => {
        const s = filterToString(ast);
        const back = parseFilter(s, FILTER_SCHEMA)!;
        return sameAst(back, ast);
      }),
      { numRuns: 400 },
    );
  });

  it("any AST (empty lists, `*`, impossible ids, negative or huge radii) keeps its meaning on every document", () => {
    fc.assert(
      fc.property(astArb(false), fc.array(docArb, { minLength: 1, maxLength: 25 }), (ast, docs) => {
        const back = parseFilter(filterToString(ast), FILTER_SCHEMA)!;
        return docs.every((d) => evalNode(back, d) === evalNode(ast, d));
      }),
      { numRuns: 400 },
    );
  });

  it("with the scope: a document matches iff it is in scope AND matches every filter", () => {
    const scopes = fc.constantFrom(allScope, brokerScope, siteScope, { ...brokerScope, tenantId: T2, networkIds: [N2] }, { ...allScope, networkIds: [N1] });
    fc.assert(
      fc.property(scopes, fc.array(astArb(false), { maxLength: 3 }), fc.array(docArb, { minLength: 1, maxLength: 25 }), (scope, filters, docs) => {
        const back = parseFilter(buildFilterBy(scope, filters), SCOPE_SCHEMA)!;
        // A private price the reader may not see is a missing value to every filter.
        const seen = (d: Doc) => (isPriceHidden(priceMaskOf(scope), d.tenant_id, d.priceVisibility) ? withoutPrice(d) : d);
        return docs.every((d) => evalNode(back, d) === (inScope(scope, d) && filters.every((f) => evalNode(f, seen(d)))));
      }),
      { numRuns: 300 },
    );
  });
});

// ==================================================================== search parameters

const req = (p: Parameters<typeof toSearchRequest>[0], extra: Parameters<typeof toSearchRequest>[1] = { maxPerPage: 250 }) => toSearchRequest(p, extra);

describe("toSearchParams", () => {
  it("maps a full request", () => {
    const r = req(
      {
        q: 'Pinheiros "vista mar" -cobertura -"sem vaga"',
        query_by: "title,description",
        filter_by: "price:<1000000 && location_city:=São Paulo",
        sort_by: "price:asc",
        facet_by: "location_city,bedrooms",
        max_facet_values: 5,
        page: 2,
        per_page: 20,
      },
      { maxPerPage: 250, extraFilters: [parse("hasPhotos:true")!] },
    );
    expect(toSearchParams(brokerScope, r)).toEqual({
      q: 'pinheiros "vista mar" -cobertura -"sem vaga"',
      query_by: "title,description",
      // Partner networks are in scope: price reads as missing on their private-price listings.
      filter_by:
        `(${scopeToFilter(brokerScope)}) && ((hasPhotos:true) && ((((tenant_id:=\`${tok(T1)}\` || priceVisibility:=\`public\`) && price:<1000000)` +
        ` && location_city:=\`sao paulo\`)))`,
      sort_by: "price_public:asc,_text_match:desc,createdAt:desc",
      facet_by: "location_city,bedrooms",
      max_facet_values: 5,
      page: 2,
      per_page: 20,
      highlight_start_tag: "<mark>",
      highlight_end_tag: "</mark>",
      enable_highlight_v1: true,
      exclude_fields: "assigned_to_id,created_by_id,property_created_by_id,network_ids,on_air,price_public,typologyBasePrice_public,typologyPricePerSqm_public",
    });
  });

  it("uses `*` and the default sort for a wildcard search, and omits absent options", () => {
    const p = toSearchParams(allScope, req({ q: "*" }));
    expect(p).toEqual({
      q: "*",
      filter_by: `(tenant_id:=\`${tok(T1)}\`)`,
      sort_by: "createdAt:desc",
      page: 1,
      per_page: 10,
      highlight_start_tag: "<mark>",
      highlight_end_tag: "</mark>",
      enable_highlight_v1: true,
      exclude_fields: "assigned_to_id,created_by_id,property_created_by_id,network_ids,on_air,price_public,typologyBasePrice_public,typologyPricePerSqm_public",
    });
  });

  it("builds q from the normalized words", () => {
    expect(buildQuery([])).toBe("*");
    expect(
      buildQuery([
        { text: "casa", exclude: false, phrase: false },
        { text: "vista mar", exclude: false, phrase: true },
      ]),
    ).toBe('casa "vista mar"');
    expect(
      buildQuery([
        { text: "praia", exclude: true, phrase: false },
        { text: "beira mar", exclude: true, phrase: true },
      ]),
    ).toBe('-praia -"beira mar"');
    // A hand-built word cannot smuggle quotes or dashes in.
    expect(buildQuery([{ text: 'a" -b "c', exclude: false, phrase: true }])).toBe('"a b c"');
    expect(buildQuery([{ text: "--", exclude: false, phrase: false }])).toBe("*");
  });

  it("maps sort keys and appends the createdAt tie-break while there is room", () => {
    expect(buildSortBy([])).toBe("createdAt:desc");
    expect(
      buildSortBy([
        { kind: "text_match", dir: "desc" },
        { kind: "field", field: "createdAt", dir: "desc" },
      ]),
    ).toBe("_text_match:desc,createdAt:desc");
    expect(buildSortBy([{ kind: "geo", lat: -23.5, lng: -46.6, dir: "asc" }])).toBe("location(-23.5, -46.6):asc,createdAt:desc");
    expect(buildSortBy([{ kind: "field", field: "createdAt", dir: "asc" }])).toBe("createdAt:asc");
    expect(
      buildSortBy([
        { kind: "field", field: "price", dir: "desc" },
        { kind: "field", field: "bedrooms", dir: "asc" },
        { kind: "text_match", dir: "desc" },
      ]),
    ).toBe("price:desc,bedrooms:asc,_text_match:desc");
    expect(buildSortBy(req({ q: "casa", query_by: "title", sort_by: "location(-22.89, -47.05):asc" }).sort)).toBe(
      "location(-22.89, -47.05):asc,_text_match:desc,createdAt:desc",
    );
    expect(() => buildSortBy([{ kind: "field", field: "description", dir: "asc" }])).toThrow(/not a sortable field/);
    expect(() => buildSortBy([{ kind: "field", field: "price:asc,tenant_id", dir: "asc" }])).toThrow(/not a sortable field/);
  });
});

// ==================================================================== response mapping

/** A response as Typesense v27-v29 writes it (search-language.md §4-§5), recorded by hand. */
const FIXTURE: TypesenseSearchResponse = {
  facet_counts: [
    {
      field_name: "location_city",
      sampled: false,
      counts: [
        { count: 12, highlighted: "São Paulo", value: "São Paulo" },
        { count: 4, highlighted: "Campinas", value: "Campinas" },
      ],
      stats: { total_values: 2 },
    },
    {
      field_name: "price",
      sampled: false,
      counts: [{ count: 3, highlighted: "450000", value: "450000" }],
      stats: { min: 120000, max: 990000, sum: 5400000, avg: 337500, total_values: 14 },
    },
  ],
  found: 16,
  hits: [
    {
      document: {
        id: "l_123",
        title: "Modern loft <b>downtown</b>",
        features: ["loft", "pool"],
        price: 450000,
        createdAt: 1767225600,
        location: [-23.5665, -46.6915],
        tenant_id: T1,
        priceFormatted: "R$ 450.000,00",
      },
      highlight: {
        title: { matched_tokens: ["Modern", "loft"], snippet: "<mark>Modern</mark> <mark>loft</mark> <b>downtown</b>" },
        features: [
          { matched_tokens: ["loft"], snippet: "<mark>loft</mark>" },
          { matched_tokens: [], snippet: "pool" },
        ],
      },
      highlights: [
        { field: "title", matched_tokens: ["Modern", "loft"], snippet: "<mark>Modern</mark> <mark>loft</mark> <b>downtown</b>" },
        { field: "features", indices: [0], matched_tokens: [["loft"]], snippets: ["<mark>loft</mark>"] },
      ],
      // Typesense sends this as a JSON number past 2^53: JavaScript reads the nearest double.
      text_match: 578730123365711900,
      text_match_info: { score: "578730123365711899" },
      geo_distance_meters: { location: 1234 },
    },
    {
      document: { id: "l_456", title: "Loft compartilhado", createdAt: 1767000000, tenant_id: T2 },
      highlight: { title: { matched_tokens: ["Loft"], snippet: "<mark>Loft</mark> compartilhado" } },
      highlights: [{ field: "title", matched_tokens: ["Loft"], snippet: "<mark>Loft</mark> compartilhado" }],
      text_match: 578730089005449200,
      text_match_info: { score: "578730089005449219" },
      geo_distance_meters: { location: 98765 },
    },
  ],
  out_of: 5000,
  page: 1,
  request_params: { collection_name: "listings", per_page: 10, q: "modern loft" },
  search_cutoff: false,
  search_time_ms: 3,
};

describe("fromTypesense", () => {
  const r = req({ q: "modern loft", query_by: "title,features", sort_by: "location(-23.56, -46.69):asc" });

  it("maps the response to our SearchResult", () => {
    const out = fromTypesense(FIXTURE, brokerScope, r, { outOf: 42 });
    expect(out.found).toBe(16);
    expect(out.out_of).toBe(42); // the scope's size, not the collection's
    expect(out.page).toBe(1);
    expect(out.search_cutoff).toBe(false);
    expect(out.search_time_ms).toBe(3);
    expect(out.request_params).toEqual({ collection_name: "listings", per_page: 10, q: "modern loft" });
    expect(out.facet_counts).toEqual([
      {
        field_name: "location_city",
        sampled: false,
        counts: [
          { count: 12, highlighted: "São Paulo", value: "São Paulo" },
          { count: 4, highlighted: "Campinas", value: "Campinas" },
        ],
        stats: { total_values: 2 },
      },
      {
        field_name: "price",
        sampled: false,
        counts: [{ count: 3, highlighted: "450000", value: "450000" }],
        stats: { min: 120000, max: 990000, sum: 5400000, avg: 337500, total_values: 14 },
      },
    ]);
    const [own, shared] = out.hits;
    expect(own.isNetworkListing).toBe(false);
    expect(shared.isNetworkListing).toBe(true);
    expect(own.document).toMatchObject({
      id: "l_123",
      location_latitude: -23.5665,
      location_longitude: -46.6915,
      priceFormatted: "R$ 450.000,00",
      bedrooms: null,
    });
    expect(own.document).not.toHaveProperty("tenant_id");
    expect(own.document).not.toHaveProperty("location");
    expect(shared.document).toMatchObject({ location_latitude: null, location_longitude: null });
    expect(own.highlights).toEqual([
      { field: "title", snippet: "<mark>Modern</mark> <mark>loft</mark> &lt;b&gt;downtown&lt;/b&gt;", matched_tokens: ["Modern", "loft"] },
      { field: "features", snippet: "<mark>loft</mark>", matched_tokens: ["loft"] },
    ]);
    expect(own.highlight).toEqual({
      title: { snippet: "<mark>Modern</mark> <mark>loft</mark> &lt;b&gt;downtown&lt;/b&gt;", matched_tokens: ["Modern", "loft"] },
      features: { snippet: "<mark>loft</mark>", matched_tokens: ["loft"] },
    });
    expect(own.geo_distance_meters).toEqual({ location: 1234 });
    expect(own.text_match).toBe(Number(578730123365711899n >> 11n));
    expect(own.text_match!).toBeLessThanOrEqual(2 ** 53);
    expect(Number.isSafeInteger(own.text_match)).toBe(true);
    expect(own.text_match!).toBeGreaterThan(shared.text_match!); // order kept, from the exact string score
  });

  it("omits text_match when Typesense does, and maps a wildcard hit", () => {
    const res: TypesenseSearchResponse = {
      facet_counts: [],
      found: 1,
      out_of: 9,
      page: 1,
      search_time_ms: 0,
      request_params: { collection_name: "listings", per_page: 10, q: "*" },
      hits: [{ document: { id: "x", createdAt: 1, tenant_id: T1 }, highlights: [], highlight: {} }],
    };
    const out = fromTypesense(res, allScope, req({ q: "*" }));
    expect(out.out_of).toBe(9);
    expect(out.hits[0]).toEqual({ document: expect.objectContaining({ id: "x", createdAt: 1 }), highlights: [], highlight: {}, isNetworkListing: false });
    expect(out.hits[0]).not.toHaveProperty("text_match");
    expect(out.hits[0]).not.toHaveProperty("geo_distance_meters");
  });

  it("falls back to the v2 highlight object when v1 is off", () => {
    const { highlights: _drop, ...hitNoV1 } = FIXTURE.hits![0];
    const out = fromTypesense({ ...FIXTURE, hits: [hitNoV1] }, brokerScope, r);
    expect(out.hits[0].highlights).toEqual([
      { field: "title", snippet: "<mark>Modern</mark> <mark>loft</mark> &lt;b&gt;downtown&lt;/b&gt;", matched_tokens: ["Modern", "loft"] },
      { field: "features", snippet: "<mark>loft</mark>", matched_tokens: ["loft"] },
    ]);
  });

  it("text_match: exact from the string score, bounded by 2^53 either way", () => {
    expect(textMatchOf({ text_match_info: { score: "18446744073709551615" } })).toBe(2 ** 53 - 1);
    expect(textMatchOf({ text_match: 1.8446744073709552e19 })).toBe(2 ** 53);
    expect(textMatchOf({ text_match: 4096 })).toBe(2);
    expect(textMatchOf({})).toBeUndefined();
  });
});

// ==================================================================== errors

describe("Typesense errors", () => {
  const clientError = (Cls: new (m: string, b?: string, s?: number) => Error, status: number, msg: string) =>
    new Cls(`Request failed with HTTP code ${status} | Server said: ${msg}`, undefined, status);

  it("the request's fault (400, 422, unknown field 404) -> DomainError 400 invalid_search with the server's text", () => {
    for (const [Cls, status, msg] of [
      [Errors.RequestMalformed, 400, "Could not parse the filter query."],
      [Errors.RequestMalformed, 400, "`filter_by` has too many operations. Maximum allowed: 100."],
      [Errors.ObjectUnprocessable, 422, "Only upto 250 hits can be fetched per page."],
      [Errors.ObjectNotFound, 404, "Could not find a field named `x` in the schema for sorting."],
      [Errors.ObjectNotFound, 404, "Could not find a facet field named `x` in the schema."],
    ] as const) {
      const e = toSearchError(clientError(Cls, status, msg));
      expect(e).toBeInstanceOf(DomainError);
      expect(e).toMatchObject({ kind: "invalid", code: "invalid_search", message: msg });
      expect(toErrorResponse(e)?.status).toBe(400);
    }
  });

  it("everything else is a TypesenseServiceError, which the HTTP layer answers as a 500, never a 400", () => {
    const cases: [Error, number | undefined][] = [
      [clientError(Errors.ServerError, 503, "Not Ready or Lagging"), 503],
      [clientError(Errors.ServerError, 500, "boom"), 500],
      [clientError(Errors.RequestUnauthorized, 401, "Forbidden - a valid `x-typesense-api-key` header must be sent."), 401],
      [clientError(Errors.ObjectNotFound, 404, "Not found."), 404], // the collection is missing: ours to fix
      [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8108"), { code: "ECONNREFUSED" }), undefined],
      [new Error("timeout of 5000ms exceeded"), undefined],
    ];
    for (const [err, status] of cases) {
      const e = toSearchError(err);
      expect(e).toBeInstanceOf(TypesenseServiceError);
      expect(e).not.toBeInstanceOf(DomainError);
      expect((e as TypesenseServiceError).status).toBe(status);
      expect((e as TypesenseServiceError).cause).toBe(err);
      expect(toErrorResponse(e)).toBeNull(); // -> 500
    }
    expect(searchErrorFor(503, "x").message).toBe("Typesense answered HTTP 503: x");
  });
});

// ==================================================================== the engine over HTTP, against a fake Typesense

type Seen = { method: string; url: string; body: string };
let server: http.Server;
let base = "";
const seen: Seen[] = [];
let reply: (s: Seen) => { status: number; body: string; type?: string } = () => ({ status: 500, body: "{}" });

beforeAll(async () => {
  server = http.createServer((rq, rs) => {
    let body = "";
    rq.on("data", (c) => (body += c));
    rq.on("end", () => {
      const s = { method: rq.method ?? "", url: rq.url ?? "", body };
      seen.push(s);
      const r = reply(s);
      rs.writeHead(r.status, { "content-type": r.type ?? "application/json; charset=utf-8" });
      rs.end(r.body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const engine = () => new TypesenseSearchEngine(base, "test-key", "listings_t", { numRetries: 0, connectionTimeoutSeconds: 2, logLevel: "silent" });

describe("TypesenseSearchEngine (fake server)", () => {
  it("parses the URL into the client's node", () => {
    expect(nodeFromUrl("http://typesense:8108")).toEqual({ host: "typesense", port: 8108, protocol: "http" });
    expect(nodeFromUrl("https://search.example.com/ts/")).toEqual({ host: "search.example.com", port: 443, protocol: "https", path: "/ts" });
    expect(nodeFromUrl("http://10.0.0.5")).toEqual({ host: "10.0.0.5", port: 80, protocol: "http" });
    expect(() => nodeFromUrl("ftp://x")).toThrow(/http or https/);
    expect(() => nodeFromUrl("not a url")).toThrow(/not a valid URL/);
    expect(engine().name).toBe("typesense");
  });

  it("sends one multi_search with the request and the scope count, and maps the answer", async () => {
    seen.length = 0;
    reply = () => ({ status: 200, body: JSON.stringify({ results: [FIXTURE, { ...FIXTURE, hits: [], facet_counts: [], found: 42 }] }) });
    const r = req({ q: "modern loft", query_by: "title,features", facet_by: "location_city" });
    const out = await engine().search(brokerScope, r);
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe("POST");
    expect(seen[0].url.startsWith("/multi_search")).toBe(true);
    const body = JSON.parse(seen[0].body) as { searches: Record<string, unknown>[] };
    expect(body.searches[0]).toEqual({ collection: "listings_t", ...toSearchParams(brokerScope, r) });
    expect(body.searches[1]).toEqual({ collection: "listings_t", q: "*", filter_by: `(${scopeToFilter(brokerScope)})`, per_page: 0, page: 1 });
    expect(out.found).toBe(16);
    expect(out.out_of).toBe(42);
    expect(out.hits.map((h) => h.isNetworkListing)).toEqual([false, true]);
  });

  it("a failed search inside multi_search: 400 -> DomainError, 5xx -> service error", async () => {
    reply = () => ({ status: 200, body: JSON.stringify({ results: [{ code: 400, error: "Could not parse the filter query." }, { found: 1 }] }) });
    await expect(engine().search(allScope, req({ q: "*" }))).rejects.toMatchObject({
      kind: "invalid",
      code: "invalid_search",
      message: "Could not parse the filter query.",
    });
    reply = () => ({ status: 200, body: JSON.stringify({ results: [FIXTURE, { code: 503, error: "Not Ready or Lagging" }] }) });
    await expect(engine().search(allScope, req({ q: "*" }))).rejects.toBeInstanceOf(TypesenseServiceError);
  });

  it("HTTP errors: 400 -> DomainError, 503 and refused connections -> service errors", async () => {
    reply = () => ({ status: 400, body: JSON.stringify({ message: "Parameter `q` is required." }) });
    await expect(engine().search(allScope, req({ q: "*" }))).rejects.toMatchObject({ kind: "invalid", message: "Parameter `q` is required." });
    reply = () => ({ status: 503, body: JSON.stringify({ message: "Not Ready or Lagging" }) });
    await expect(engine().search(allScope, req({ q: "*" }))).rejects.toMatchObject({ name: "TypesenseServiceError", status: 503 });
    const closed = http.createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const dead = new TypesenseSearchEngine(`http://127.0.0.1:${port}`, "k", "c", { numRetries: 0, connectionTimeoutSeconds: 1, logLevel: "silent" });
    const err = await dead.search(allScope, req({ q: "*" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypesenseServiceError);
    expect((err as TypesenseServiceError).status).toBeUndefined();
    expect(toErrorResponse(err)).toBeNull();
  });

  it("upserts in batches of 500 with action=upsert and names the failures", async () => {
    seen.length = 0;
    reply = (s) => {
      const lines = s.body
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string });
      return {
        status: 200,
        body: lines
          .map((d) => JSON.stringify(d.id === "bad-1" ? { success: false, error: "Field `bedrooms` must be an int32.", code: 400 } : { success: true }))
          .join("\n"),
        type: "text/plain; charset=utf-8", // Typesense answers an import with JSON lines as text
      };
    };
    const docs = Array.from({ length: 1001 }, (_, i) => ({ doc: sampleDoc({ id: i === 700 ? "bad-1" : `d-${i}` }), access }));
    docs.push({ doc: sampleDoc({ id: "no-date", createdAt: null }), access });
    const err = (await engine()
      .upsertDocuments(docs)
      .then(
        () => new Error("expected a failure"),
        (e: unknown) => e,
      )) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/2 of 1002 documents failed \(1000 upserted\)/);
    expect(err.message).toMatch(/bad-1: Field `bedrooms` must be an int32\./);
    expect(err.message).toMatch(/no-date: toTypesenseDoc: document no-date has no createdAt/);
    const imports = seen.filter((s) => s.url.startsWith("/collections/listings_t/documents/import"));
    expect(imports.map((s) => s.body.split("\n").filter(Boolean).length)).toEqual([500, 500, 1]);
    expect(imports[0].url).toContain("action=upsert");
    const first = JSON.parse(imports[0].body.split("\n")[0]) as Record<string, unknown>;
    expect(first).toMatchObject({ id: "d-0", tenant_id: T1, location: [-23.5665, -46.6915] });

    reply = (s) => ({
      status: 200,
      body: s.body
        .split("\n")
        .filter(Boolean)
        .map(() => '{"success":true}')
        .join("\n"),
      type: "text/plain",
    });
    await expect(engine().upsertDocuments(docs.slice(0, 3))).resolves.toEqual({ upserted: 3 });
  });

  it("deletes by id in batches, dropping ids that cannot exist", async () => {
    seen.length = 0;
    reply = () => ({ status: 200, body: JSON.stringify({ num_deleted: 1 }) });
    const ids = [...Array.from({ length: 150 }, (_, i) => `id-${i}`), "x` || id:*"];
    await expect(engine().deleteDocuments(ids)).resolves.toEqual({ deleted: 2 });
    expect(seen.map((s) => s.method)).toEqual(["DELETE", "DELETE"]);
    const filter = new URL(seen[0].url, base).searchParams.get("filter_by")!;
    expect(filter.startsWith("id:[`id-0`, `id-1`,")).toBe(true);
    expect(seen.some((s) => decodeURIComponent(s.url).includes("id:*"))).toBe(false);
  });

  it("ensureCollection creates the collection from the registry when missing", async () => {
    seen.length = 0;
    reply = (s) => (s.method === "GET" ? { status: 404, body: '{"message":"Not Found"}' } : { status: 201, body: s.body });
    await expect(engine().ensureCollection()).resolves.toEqual({ created: true, addedFields: [], mismatchedFields: [] });
    const post = seen.find((s) => s.method === "POST")!;
    expect(post.url.startsWith("/collections")).toBe(true);
    expect(JSON.parse(post.body)).toEqual(collectionSchema("listings_t"));
  });

  it("ensureCollection adds fields the registry gained, and reports type changes", async () => {
    seen.length = 0;
    const existing = collectionFields()
      .filter((f) => f.name !== "hasVideo")
      .map((f) => (f.name === "bedrooms" ? { ...f, type: "float" } : f));
    reply = (s) => (s.method === "GET" ? { status: 200, body: JSON.stringify({ name: "listings_t", fields: existing }) } : { status: 200, body: s.body });
    await expect(engine().ensureCollection()).resolves.toEqual({
      created: false,
      addedFields: ["hasVideo"],
      mismatchedFields: [{ name: "bedrooms", expected: "int32", actual: "float" }],
    });
    const patch = seen.find((s) => s.method === "PATCH")!;
    expect(JSON.parse(patch.body)).toEqual({ fields: [{ name: "hasVideo", type: "bool", facet: true, optional: true }] });
  });
});

// ==================================================================== private prices (price-visibility.ts)

describe("private prices outside the listing's tenant", () => {
  const priced = (over: Record<string, unknown>) => sampleDoc({ price: 1234567, priceFormatted: "R$ 1.234.567,00", typologyBasePrice: 1200000, ...over });

  it("indexes public twins of the price fields only for public prices, never taken from the document", () => {
    const pub = toTypesenseDoc(priced({ priceVisibility: "public" }), access);
    expect(pub).toMatchObject({ price: 1234567, price_public: 1234567, typologyBasePrice_public: 1200000 });
    const priv = toTypesenseDoc(priced({ priceVisibility: "private", price_public: 5 }), access);
    expect(priv.price).toBe(1234567);
    for (const n of PUBLIC_PRICE_FIELD_NAMES) expect(priv, n).not.toHaveProperty(n);
    // Fail closed: no priceVisibility, no public twin.
    expect(toTypesenseDoc(priced({ priceVisibility: null }), access)).not.toHaveProperty("price_public");
    const doc = priced({ priceVisibility: "public" });
    expect(documentOf(toTypesenseDoc(doc, access))).toEqual(doc);
  });

  it("guards price comparisons so a hidden price reads as missing: positives need `visible`, negations pass on `hidden`", () => {
    const other = `tenant_id:!=\`${tok(T1)}\``;
    expect(buildFilterBy(allScope, [parse("price:<5")!])).toBe(`(${scopeToFilter(allScope)}) && ((price:<5))`);
    expect(buildFilterBy(brokerScope, [parse("price:<5 && bedrooms:2")!])).toBe(
      `(${scopeToFilter(brokerScope)}) && (((((tenant_id:=\`${tok(T1)}\` || priceVisibility:=\`public\`) && price:<5) && bedrooms:2)))`,
    );
    expect(buildFilterBy(brokerScope, [parse("price:!=5")!])).toBe(
      `(${scopeToFilter(brokerScope)}) && ((((${other} && priceVisibility:!=\`public\`) || price:!=5)))`,
    );
    expect(buildFilterBy(siteScope, [parse("typologyBasePrice:[1..9]")!])).toBe(
      `(${scopeToFilter(siteScope)}) && (((priceVisibility:=\`public\` && typologyBasePrice:[1..9])))`,
    );
    expect(buildFilterBy(siteScope, [parse("price:!=[1..9]")!])).toBe(`(${scopeToFilter(siteScope)}) && (((priceVisibility:!=\`public\` || price:!=[1..9])))`);
    // The guarded filter still parses back under the scope schema.
    expect(parseFilter(buildFilterBy(brokerScope, [parse("price:[!=5, >9] || price:<2")!]), SCOPE_SCHEMA)).not.toBeNull();
  });

  it("sorts and facets on the public twin when the scope reaches hidden prices, under the name asked for", () => {
    const r = req({ q: "*", sort_by: "price:desc,bedrooms:asc", facet_by: "price,bedrooms" });
    expect(toSearchParams(allScope, r)).toMatchObject({ sort_by: "price:desc,bedrooms:asc,createdAt:desc", facet_by: "price,bedrooms" });
    expect(toSearchParams(brokerScope, r)).toMatchObject({ sort_by: "price_public:desc,bedrooms:asc,createdAt:desc", facet_by: "price_public,bedrooms" });
    expect(toSearchParams(siteScope, r)).toMatchObject({ sort_by: "price_public:desc,bedrooms:asc,createdAt:desc", facet_by: "price_public,bedrooms" });
    const res: TypesenseSearchResponse = {
      found: 0,
      out_of: 0,
      page: 1,
      search_time_ms: 1,
      hits: [],
      facet_counts: [{ field_name: "price_public", counts: [{ count: 1, value: "900000" }], stats: { min: 900000, max: 900000, total_values: 1 } }],
    };
    expect(fromTypesense(res, brokerScope, r).facet_counts[0]).toMatchObject({ field_name: "price", counts: [{ value: "900000", count: 1 }] });
  });

  it("blanks the price fields of hits whose private price the reader may not see", () => {
    const r = req({ q: "*" });
    const h = (tenant: string, priceVisibility: string, id: string) => ({
      document: { ...toTypesenseDoc(priced({ id, priceVisibility }), { ...access, tenantId: tenant }) },
    });
    const res: TypesenseSearchResponse = {
      found: 3,
      out_of: 3,
      page: 1,
      search_time_ms: 1,
      hits: [h(T1, "private", "own-private"), h(T2, "private", "partner-private"), h(T2, "public", "partner-public")],
    };
    const prices = (scope: SearchScope) =>
      Object.fromEntries(
        fromTypesense(res, scope, r).hits.map((x) => [x.document.id, [x.document.price, x.document.priceFormatted, x.document.typologyBasePrice]]),
      );
    const shown = [1234567, "R$ 1.234.567,00", 1200000];
    const blank = [null, null, null];
    expect(prices(brokerScope)).toEqual({ "own-private": shown, "partner-private": blank, "partner-public": shown });
    expect(prices(siteScope)).toEqual({ "own-private": blank, "partner-private": blank, "partner-public": shown });
    expect(prices(allScope)).toEqual({ "own-private": shown, "partner-private": shown, "partner-public": shown });
    for (const hitDoc of fromTypesense(res, brokerScope, r).hits) for (const n of PUBLIC_PRICE_FIELD_NAMES) expect(hitDoc.document).not.toHaveProperty(n);
    expect(PRICE_FIELDS).toContain("price");
  });
});
