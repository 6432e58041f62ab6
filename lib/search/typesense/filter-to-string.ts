/**
 * Filter AST -> Typesense `filter_by` text (search-language.md §1, and §6 "Injection safety").
 *
 * `filter_by` has no bind parameters, so this is the one place where values become filter syntax. Rules:
 * 1. Field names come only from the schema the AST is checked against (`FILTER_SCHEMA` for the user's filters,
 *    `SCOPE_SCHEMA` for the scope), and the leaf kind must fit the field's type; anything else is a bug and throws.
 * 2. String values: the AST holds normalized tokens. Each token is stripped of every ASCII character that is not
 *    a letter, a digit or a space (backticks, backslashes, `*`, `:`, `(`, `,`...), then the value is wrapped in
 *    backticks. Typesense's tokenizer deletes that punctuation anyway (§0; we set no `symbols_to_index`), so the
 *    match is unchanged, and nothing inside the backticks can end the quoted span: not a backtick (§6), not a
 *    backslash before the closing backtick (`split_to_values` honours `\``), not `:(` (Typesense's lexer arms its
 *    geo rule on a `:` even inside backticks, see lexer.ts).
 * 3. Numbers: the canonical text is checked against a strict pattern and the field type's range, and written as a
 *    plain decimal (no exponent). Bools: the literals. Geo: finite floats only, written as plain decimals.
 * 4. Ids: raw ids, only `[A-Za-z0-9_-]` (our ids are UUIDs); an id with any other character cannot exist in the
 *    collection, so it is dropped from the list, which keeps the leaf's meaning (unknown ids match nothing).
 * 5. Every binary node is parenthesised (`&&` and `||` have equal precedence, left to right, §1.1), and the final
 *    `filter_by` is `(<scope>) && (<filters>)`, so no user expression can widen the scope (§6 rule 4).
 */
import type { SearchScope } from "../engine";
import { FILTER_SCHEMA } from "../fields";
import type { BoolLeaf, FilterNode, GeoLeaf, GeoShape, IdLeaf, NumberItem, NumberLeaf, StringLeaf, StringValue } from "../filter";
import type { FilterField, FilterSchema } from "../filter";
import { normalizeTokens } from "../filter";
import { ID_FIELD, lookupField } from "../filter/schema";
import { UUID_PATTERN } from "../../schemas/uuid";
import { guardPriceLeaves, priceMaskOf } from "../price-visibility";
import { DEFAULT_SORTING_FIELD } from "./collection-schema";

/** The user's schema plus the access fields: only the scope filter is checked against it. */
export const SCOPE_SCHEMA: FilterSchema = Object.freeze({
  ...FILTER_SCHEMA,
  tenant_id: { type: "string", column: "tenant_id", tokens: "tenant_id" },
  assigned_to_id: { type: "string", column: "assigned_to_id", tokens: "assigned_to_id" },
  created_by_id: { type: "string", column: "created_by_id", tokens: "created_by_id" },
  property_created_by_id: { type: "string", column: "property_created_by_id", tokens: "property_created_by_id" },
  network_ids: { type: "string[]", column: "network_ids", tokens: "network_ids" },
  on_air: { type: "bool", column: "on_air" },
});

/**
 * Version-independent "matches nothing" / "matches everything" (`id:!=*` and bool `!=[...]` lists need v28+).
 * `createdAt` is required in every document (it is the default sorting field), so exactly one half holds.
 */
export const MATCH_NOTHING = `(${DEFAULT_SORTING_FIELD}:<0 && ${DEFAULT_SORTING_FIELD}:>0)`;
export const MATCH_EVERYTHING = `(${DEFAULT_SORTING_FIELD}:<0 || ${DEFAULT_SORTING_FIELD}:>=0)`;

/** Typesense measures on a sphere of this radius; a circle of half its circumference covers the whole globe. */
const MAX_RADIUS_KM = 20_016;
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class FilterSerializeError extends Error {
  constructor(message: string) {
    super(`filter-to-string: ${message}`);
    this.name = "FilterSerializeError";
  }
}

/** Serializes one AST. `schema` is the allow-list of field names (the user's `FILTER_SCHEMA` by default). */
export function filterToString(node: FilterNode, schema: FilterSchema = FILTER_SCHEMA): string {
  switch (node.kind) {
    case "and":
    case "or":
      return `(${filterToString(node.left, schema)} ${node.kind === "and" ? "&&" : "||"} ${filterToString(node.right, schema)})`;
    case "string":
      return stringLeaf(node, fieldOf(schema, node.field, ["string", "string[]"]));
    case "number":
      return numberLeaf(node, fieldOf(schema, node.field, ["int32", "int64", "float"]));
    case "bool":
      fieldOf(schema, node.field, ["bool"]);
      return boolLeaf(node);
    case "geo":
      fieldOf(schema, node.field, ["geopoint"]);
      return geoLeaf(node);
    case "id":
      if (node.field !== ID_FIELD) throw new FilterSerializeError(`an id leaf must be on \`${ID_FIELD}\`, not \`${node.field}\``);
      fieldOf(schema, node.field, ["string"]);
      return idLeaf(node);
    default:
      throw new FilterSerializeError(`unknown node kind ${JSON.stringify((node as { kind?: unknown }).kind)}`);
  }
}

/**
 * The tenant / access / network / public-surface filter as an AST over `SCOPE_SCHEMA`, the Typesense twin of
 * `scopeSql`: own tenant (restricted access: public, or assigned to / created by the member, or on a property
 * the member created), OR other tenants' public listings shared to one of `networkIds`; `publicOnly` then keeps
 * public listings in the active stage.
 */
/** `field:=value` (or `:!=`) over `SCOPE_SCHEMA`, for the filters the engine itself adds. */
function eq(field: string, raw: string, what: string, negate = false): FilterNode {
  const tokens = normalizeTokens(String(raw));
  if (!cleanTokens(tokens)) throw new FilterSerializeError(`the scope's ${what} is empty after normalization`);
  return { kind: "string", field, fieldType: "string", match: "exact", negate, values: [{ tokens, prefix: false }], pos: 0 };
}
const and = (left: FilterNode, right: FilterNode): FilterNode => ({ kind: "and", left, right, pos: 0 });
const or = (left: FilterNode, right: FilterNode): FilterNode => ({ kind: "or", left, right, pos: 0 });

export function scopeToAst(scope: SearchScope): FilterNode {
  // Typesense compares normalized tokens, which drops a UUID's dashes: harmless for UUIDs (the dashes sit at fixed
  // places, so two different UUIDs stay different), but an arbitrary id could normalize to someone else's.
  const uuid = (v: string, what: string) => {
    if (!UUID_PATTERN.test(String(v))) throw new FilterSerializeError(`the scope's ${what} must be a UUID`);
    return v;
  };
  uuid(scope.tenantId, "tenantId");
  if (scope.access.kind === "restricted") uuid(scope.access.userId, "userId");
  for (const n of scope.networkIds) uuid(n, "networkIds");
  const isPublic = () => eq("visibility", "public", "visibility");

  let own = eq("tenant_id", scope.tenantId, "tenantId");
  if (scope.access.kind === "restricted") {
    const u = scope.access.userId;
    const mine = [eq("assigned_to_id", u, "userId"), eq("created_by_id", u, "userId"), eq("property_created_by_id", u, "userId")];
    own = and(own, mine.reduce(or, isPublic()));
  }
  let base = own;
  if (scope.networkIds.length) {
    const networks: FilterNode = {
      kind: "string",
      field: "network_ids",
      fieldType: "string[]",
      match: "exact",
      negate: false,
      pos: 0,
      values: scope.networkIds.map((n) => ({ tokens: normalizeTokens(n), prefix: false })),
    };
    const onAir: FilterNode = { kind: "bool", field: "on_air", pos: 0, negate: false, values: [true] };
    base = or(own, and(and(and(eq("tenant_id", scope.tenantId, "tenantId", true), networks), isPublic()), onAir));
  }
  if (scope.publicOnly) base = and(and(base, isPublic()), eq("stage", scope.publicOnly.activeStage, "activeStage"));
  return base;
}

export function scopeToFilter(scope: SearchScope): string {
  return filterToString(scopeToAst(scope), SCOPE_SCHEMA);
}

/**
 * The user's filter as this scope's reader may apply it: where a listing's private price is hidden from the
 * reader (partner networks, public surfaces), price comparisons see no price (see price-visibility.ts). The
 * added `tenant_id` / `priceVisibility` leaves are ours, so the result is serialized against `SCOPE_SCHEMA`.
 */
export function priceGuardedFilter(scope: SearchScope, filter: FilterNode): { node: FilterNode; schema: FilterSchema } {
  const mask = priceMaskOf(scope);
  if (mask.kind === "none") return { node: filter, schema: FILTER_SCHEMA };
  // A document without a priceVisibility counts as private (`:!=` includes missing values).
  const isPublic = eq("priceVisibility", "public", "priceVisibility");
  const notPublic = eq("priceVisibility", "public", "priceVisibility", true);
  const [hidden, visible] =
    mask.kind === "all"
      ? [notPublic, isPublic]
      : [and(eq("tenant_id", mask.tenantId, "tenantId", true), notPublic), or(eq("tenant_id", mask.tenantId, "tenantId"), isPublic)];
  return { node: guardPriceLeaves(filter, hidden, visible), schema: SCOPE_SCHEMA };
}

/**
 * The complete `filter_by`: `(<scope>) && ((<f1>) && (<f2>) ...)`. The scope is ANDed around the whole user part,
 * in its own parentheses, so `|| anything` in a filter only ever combines with the user's other filters.
 */
export function buildFilterBy(scope: SearchScope, filters: FilterNode[]): string {
  const s = `(${scopeToFilter(scope)})`;
  if (!filters.length) return s;
  const user = filters.map((f) => {
    const { node, schema } = priceGuardedFilter(scope, f);
    return `(${filterToString(node, schema)})`;
  });
  return `${s} && (${user.join(" && ")})`;
}

function fieldOf(schema: FilterSchema, name: string, types: FilterField["type"][]): FilterField {
  const f = lookupField(schema, name);
  if (!f) throw new FilterSerializeError(`field \`${name}\` is not in the schema`);
  if (!types.includes(f.type)) throw new FilterSerializeError(`field \`${name}\` is a ${f.type}, not ${types.join("/")}`);
  return f;
}

// ---------------------------------------------------------------- strings

/** Every ASCII character except letters, digits and the space. */
const ASCII_PUNCT = /[\x00-\x1f\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/g;

/** Tokens -> the text between the backticks: punctuation removed, single spaces. `""` if nothing is left. */
export function cleanTokens(tokens: string[]): string {
  return tokens
    .map((t) => String(t).replace(/\n/g, " ").replace(ASCII_PUNCT, ""))
    .join(" ")
    .split(" ")
    .filter(Boolean)
    .join(" ");
}

function stringItem(v: StringValue): string {
  const text = cleanTokens(v.tokens);
  if (!text) throw new FilterSerializeError("a string value has no token left");
  return `\`${text}${v.prefix ? "*" : ""}\``;
}

function stringLeaf(leaf: StringLeaf, field: FilterField): string {
  if (field.type !== leaf.fieldType) throw new FilterSerializeError(`field \`${leaf.field}\` is a ${field.type}, the leaf says ${leaf.fieldType}`);
  if (leaf.values.length === 0) return leaf.negate ? MATCH_EVERYTHING : MATCH_NOTHING;
  const op = (leaf.negate ? "!" : "") + (leaf.match === "exact" ? "=" : "");
  // A prefix must sit in a bracket list: `` f:`Jo*` `` is the literal text, `` f:[`Jo*`] `` the prefix (strings.ts).
  if (leaf.values.length === 1 && !leaf.values[0].prefix) return `${leaf.field}:${op}${stringItem(leaf.values[0])}`;
  return `${leaf.field}:${op}[${leaf.values.map(stringItem).join(", ")}]`;
}

// ---------------------------------------------------------------- numbers

const INT_TEXT = /^-?\d+$/;
const FLOAT_TEXT = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
const RANGES = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

function numberText(field: string, type: NumberLeaf["fieldType"], text: string): string {
  if (type === "float") {
    if (!FLOAT_TEXT.test(text) || !Number.isFinite(Number(text))) throw new FilterSerializeError(`\`${field}\`: ${JSON.stringify(text)} is not a float`);
    return plainDecimal(text);
  }
  if (!INT_TEXT.test(text)) throw new FilterSerializeError(`\`${field}\`: ${JSON.stringify(text)} is not an integer`);
  const v = BigInt(text);
  const [min, max] = RANGES[type];
  if (v < min || v > max) throw new FilterSerializeError(`\`${field}\`: ${text} is out of the ${type} range`);
  return v.toString();
}

function numberItem(leaf: NumberLeaf, it: NumberItem): string {
  const n = (t: string) => numberText(leaf.field, leaf.fieldType, t);
  if (it.op === "range") return `${n(it.min)}..${n(it.max)}`;
  return it.op === "=" ? n(it.value) : `${it.op}${n(it.value)}`;
}

function numberLeaf(leaf: NumberLeaf, field: FilterField): string {
  if (field.type !== leaf.fieldType) throw new FilterSerializeError(`field \`${leaf.field}\` is a ${field.type}, the leaf says ${leaf.fieldType}`);
  if (leaf.items.length === 0) return leaf.negate ? MATCH_EVERYTHING : MATCH_NOTHING;
  const items = leaf.items.map((it) => numberItem(leaf, it));
  if (leaf.negate) return `${leaf.field}:!=[${items.join(", ")}]`;
  // A range always goes in brackets: `-5..-1` is unambiguous there.
  if (items.length === 1 && leaf.items[0].op !== "range") return `${leaf.field}:${items[0]}`;
  return `${leaf.field}:[${items.join(", ")}]`;
}

/** `1.5e-7` -> `0.00000015`, `1e+21` -> `1000000000000000000000`: exact digit shuffling, no rounding. */
export function plainDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new FilterSerializeError(`${JSON.stringify(text)} is not a decimal number`);
  const [, sign, int, frac = "", exp = "0"] = m;
  let digits = int + frac;
  let point = int.length + Number(exp);
  if (point <= 0) {
    digits = "0".repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits += "0".repeat(point - digits.length);
  }
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(point).replace(/0+$/, "");
  const out = whole + (fraction ? `.${fraction}` : "");
  return out === "0" ? "0" : sign + out;
}

const num = (n: number, what: string): string => {
  if (typeof n !== "number" || !Number.isFinite(n)) throw new FilterSerializeError(`${what} is not a finite number`);
  return plainDecimal(String(n));
};

// ---------------------------------------------------------------- bools, geo, ids

function boolLeaf(leaf: BoolLeaf): string {
  const set = [...new Set(leaf.values)].sort().reverse(); // [true, false] order, duplicates removed
  const f = leaf.field;
  if (!leaf.negate) {
    if (set.length === 0) return MATCH_NOTHING;
    return set.length === 1 ? `${f}:${set[0]}` : `${f}:[true, false]`;
  }
  if (set.length === 0) return MATCH_EVERYTHING;
  // `f:!=[true, false]` (only documents without the field) needs v28+; this form works on every version.
  return set.length === 1 ? `${f}:!=${set[0]}` : `(${f}:!=true && ${f}:!=false)`;
}

function shapeText(s: GeoShape): string | null {
  if (s.type === "circle") {
    if (!(s.radiusMeters >= 0)) return null; // a negative radius contains no point (NaN is refused below)
    const km = Math.min(s.radiusMeters / 1000, MAX_RADIUS_KM);
    return `(${num(s.lat, "latitude")}, ${num(s.lng, "longitude")}, ${num(km, "radius")} km)`;
  }
  if (s.vertices.length < 3) throw new FilterSerializeError("a polygon needs at least 3 vertices");
  return `(${s.vertices.map(([lat, lng]) => `${num(lat, "latitude")}, ${num(lng, "longitude")}`).join(", ")})`;
}

function geoLeaf(leaf: GeoLeaf): string {
  for (const s of leaf.shapes) if (s.type === "circle" && Number.isNaN(s.radiusMeters)) throw new FilterSerializeError("radius is NaN");
  const shapes = leaf.shapes.map(shapeText).filter((s): s is string => s !== null);
  if (shapes.length === 0) return MATCH_NOTHING;
  return shapes.length === 1 ? `${leaf.field}:${shapes[0]}` : `${leaf.field}:[${shapes.join(", ")}]`;
}

function idLeaf(leaf: IdLeaf): string {
  if (leaf.ids === "*") return leaf.negate ? MATCH_NOTHING : MATCH_EVERYTHING;
  const ids = [...new Set(leaf.ids.filter((id) => SAFE_ID.test(id)))];
  if (ids.length === 0) return leaf.negate ? MATCH_EVERYTHING : MATCH_NOTHING;
  return `${ID_FIELD}:${leaf.negate ? "!=" : ""}[${ids.map((id) => `\`${id}\``).join(", ")}]`;
}
