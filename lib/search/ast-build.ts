import { FILTER_SCHEMA } from "./fields";
import { normalizeTokens, type FilterNode, type NumberOp } from "./filter";

/**
 * Builders for filter AST nodes, for typed parameters (the REST search endpoint, site criteria).
 * They produce exactly what the parser would for the equivalent `filter_by`, so both engines
 * treat typed and raw filters alike, and no user text is ever turned into filter syntax.
 */
function stringType(field: string): "string" | "string[]" {
  const t = FILTER_SCHEMA[field]?.type;
  if (t !== "string" && t !== "string[]") throw new Error(`${field} is not a string field`);
  return t;
}

export const strExact = (field: string, values: string[], negate = false): FilterNode => ({
  kind: "string",
  field,
  pos: 0,
  fieldType: stringType(field),
  match: "exact",
  negate,
  values: values.map((v) => ({ tokens: normalizeTokens(v), prefix: false })).filter((v) => v.tokens.length),
});

export const strContains = (field: string, values: string[]): FilterNode => ({
  kind: "string",
  field,
  pos: 0,
  fieldType: stringType(field),
  match: "contains",
  negate: false,
  values: values.map((v) => ({ tokens: normalizeTokens(v), prefix: false })).filter((v) => v.tokens.length),
});

export const numCmp = (field: string, op: NumberOp, value: number): FilterNode => {
  const t = FILTER_SCHEMA[field]?.type;
  if (t !== "int32" && t !== "int64" && t !== "float") throw new Error(`${field} is not a numeric field`);
  return { kind: "number", field, pos: 0, fieldType: t, negate: false, items: [{ op, value: String(value) }] };
};

export const boolIs = (field: string, value: boolean): FilterNode => ({ kind: "bool", field, pos: 0, negate: false, values: [value] });

export const geoCircle = (lat: number, lng: number, radiusMeters: number): FilterNode => ({
  kind: "geo",
  field: "location",
  pos: 0,
  shapes: [{ type: "circle", lat, lng, radiusMeters }],
});

export function anyOf(nodes: FilterNode[]): FilterNode {
  return nodes.reduce((acc, n) => ({ kind: "or", left: acc, right: n, pos: 0 }));
}
