/**
 * Values of geopoint clauses (search-language.md §1.2 `value_geo`, §1.6):
 *   legacy  `(lat, lng, 5 km)` circle, `(lat1, lng1, lat2, lng2, lat3, lng3, ...)` polygon, `[(...), (...)]` list;
 *   newer   `([lat, lng], radius: 5 km[, exact_filter_radius: 10 km])`, `([lat1, lng1, ...][, exact_filter_radius: ..])`.
 * Like Typesense, a value containing `:` or a `[` inside the parentheses selects the newer syntax (and its error text).
 * We always evaluate exactly, so `exact_filter_radius` is validated and otherwise ignored.
 */
import type { GeoLeaf, GeoShape } from "./ast";
import { MSG, ParseError } from "./errors";
import { MAX_VALUES } from "./limits";
import { isPlainFloat } from "./numbers";
import { bracketed, splitTrim, sub, trimSpan, type Span } from "./span";

const KM = 1000;
const MILE = 1609.34; // Typesense's constant (§1.6)

export function parseGeoValue(field: string, value: Span, pos: number): GeoLeaf {
  const t = value.text;
  const newer = (t.startsWith("(") && t.includes("[")) || t.split("[").length > 2 || t.includes(":");
  const fmt = (at: number) =>
    new ParseError(
      newer
        ? `Value of filter field \`${field}\`: must be in the \`([-44.50, 170.29], radius: 0.75 km, exact_filter_radius: 5 km)\` or ([56.33, -65.97, 23.82, -127.82], exact_filter_radius: 7 km) format.`
        : `Value of filter field \`${field}\`: must be in the \`(-44.50, 170.29, 0.75 km)\` or (56.33, -65.97, 23.82, -127.82) format.`,
      at,
    );
  const shapes = groups(value, fmt).map((g) => (newer ? newerShape : legacyShape)(g, fmt));
  return { kind: "geo", field, pos, shapes };
}

type Fmt = (at: number) => ParseError;

/** The `( ... )` groups of a single value or of a `[ (...), (...) ]` list (a `[]` list has none: matches nothing). */
function groups(value: Span, fmt: Fmt): Span[] {
  const list = bracketed(value);
  if (!list) {
    if (!(value.text.startsWith("(") && value.text.endsWith(")"))) throw fmt(value.pos);
    return [sub(value, 1, value.text.length - 1)];
  }
  const s = list.text;
  const out: Span[] = [];
  let i = 0;
  const spaces = () => {
    while (i < s.length && s[i] === " ") i++;
  };
  spaces();
  while (i < s.length) {
    if (s[i] !== "(") throw fmt(list.pos + i);
    const close = s.indexOf(")", i);
    if (close < 0) throw fmt(list.pos + i);
    out.push(sub(list, i + 1, close));
    i = close + 1;
    spaces();
    if (i < s.length && s[i++] !== ",") throw fmt(list.pos + i - 1);
    spaces();
  }
  return out;
}

function legacyShape(inner: Span, fmt: Fmt): GeoShape {
  const open = inner.pos - 1; // shape-level errors point at the `(`
  const parts = splitTrim(inner, ",");
  if (parts.length < 3) throw fmt(open);
  // All numbers: a polygon. Otherwise it must be exactly `lat, lng, <distance><unit>`.
  if (parts.every((p) => isPlainFloat(p.text))) return polygon(parts, open, fmt);
  if (parts.length !== 3) throw fmt(parts[3].pos);
  const [lat, lng] = point(parts[0], parts[1], fmt);
  return { type: "circle", lat, lng, radiusMeters: distance(parts[2], fmt) };
}

function newerShape(group: Span, fmt: Fmt): GeoShape {
  const open = group.pos - 1; // shape-level errors point at the `(`
  const inner = trimSpan(group);
  const close = inner.text.indexOf("]", 1);
  if (!inner.text.startsWith("[") || close < 0) throw fmt(open);
  const nums = splitTrim(sub(inner, 1, close), ",");
  if (nums.length < 2 || nums.length % 2 !== 0) throw fmt(open);
  for (const n of nums) if (!isPlainFloat(n.text)) throw fmt(n.pos);
  const isPolygon = nums.length > 2;
  let radius: number | undefined;
  for (const option of splitTrim(sub(inner, close + 1), ",")) {
    const kv = splitTrim(option, ":");
    if (kv.length < 2) continue; // Typesense skips malformed options
    if (kv[0].text === "radius" && !isPolygon) radius = distance(kv[1], fmt);
    else if (kv[0].text === "exact_filter_radius") distance(kv[1], fmt); // validated; we are always exact
  }
  if (isPolygon) return polygon(nums, open, fmt);
  if (radius === undefined) throw fmt(open);
  const [lat, lng] = point(nums[0], nums[1], fmt);
  return { type: "circle", lat, lng, radiusMeters: radius };
}

function point(latS: Span, lngS: Span, fmt: Fmt): [number, number] {
  if (!isPlainFloat(latS.text)) throw fmt(latS.pos);
  if (!isPlainFloat(lngS.text)) throw fmt(lngS.pos);
  const lat = Number(latS.text);
  const lng = Number(lngS.text);
  // Out-of-range coordinates are rejected rather than wrapped: they are almost always swapped lat/lng.
  if (Math.abs(lat) > 90) throw fmt(latS.pos);
  if (Math.abs(lng) > 180) throw fmt(lngS.pos);
  return [lat, lng];
}

/** `5 km`, `5km`, `0.75 mi` -> metres. The unit is lowercase `km` or `mi` only. */
function distance(s: Span, fmt: Fmt): number {
  const t = s.text;
  const unit = t.slice(-2);
  if (t.length < 2 || (unit !== "km" && unit !== "mi")) {
    throw new ParseError("Unit must be either `km` or `mi`.", s.pos + Math.max(0, t.length - 2));
  }
  const num = trimSpan(sub(s, 0, t.length - 2));
  const meters = Number(num.text) * (unit === "km" ? KM : MILE);
  if (!isPlainFloat(num.text) || !Number.isFinite(meters)) throw fmt(num.pos);
  // Typesense takes a negative radius and matches nothing; a user who typed one meant something else.
  if (meters < 0) throw new ParseError(`A distance must not be negative: \`${t}\`.`, num.pos);
  return meters;
}

function polygon(nums: Span[], pos: number, fmt: Fmt): GeoShape {
  if (nums.length % 2 !== 0) throw fmt(nums[nums.length - 1].pos);
  // Checked here, before the quadratic validity check, not only in the parser's total.
  if (nums.length / 2 > MAX_VALUES) throw new ParseError(MSG.tooManyValues(MAX_VALUES), pos);
  const vertices: Array<[number, number]> = [];
  for (let i = 0; i < nums.length; i += 2) vertices.push(point(nums[i], nums[i + 1], fmt));
  return { type: "polygon", vertices: checkPolygon(vertices, pos) };
}

/**
 * Drops an optional closing vertex and rejects what S2 (Typesense's geometry library) calls an invalid loop,
 * with S2's wording: fewer than 3 vertices, repeated vertices, crossing edges, zero area. Either winding is fine.
 */
export function checkPolygon(vertices: Array<[number, number]>, pos: number): Array<[number, number]> {
  const invalid = (why: string) => new ParseError(`Polygon is invalid: Loop 0: ${why}`, pos);
  const same = (a: [number, number], b: [number, number]) => a[0] === b[0] && a[1] === b[1];
  const v = vertices.length > 3 && same(vertices[0], vertices[vertices.length - 1]) ? vertices.slice(0, -1) : vertices;
  const n = v.length;
  if (n < 3) throw invalid("Non-empty, non-full loops must have at least 3 vertices");
  for (let i = 0; i < n; i++) if (same(v[i], v[(i + 1) % n])) throw invalid(`Edge ${i} is degenerate (duplicate vertex)`);
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) if (same(v[i], v[j])) throw invalid(`Duplicate vertices: ${i} and ${j}`);
  }
  const { xs, ys } = planar(v);
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // adjacent through the closing edge
      const [a, b, c, d] = [i, (i + 1) % n, j, (j + 1) % n];
      if (segmentsTouch(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c], xs[d], ys[d])) {
        throw invalid(`Edge ${i} crosses edge ${j}`);
      }
    }
  }
  // Checked after crossings: a bow-tie also has zero signed area, but "crosses" is the better message.
  let area = 0;
  for (let i = 0; i < n; i++) area += xs[i] * ys[(i + 1) % n] - xs[(i + 1) % n] * ys[i];
  if (Math.abs(area) < 1e-18) throw invalid("Polygon has zero area");
  return v;
}

/**
 * Polygon vertices as planar x (= longitude) / y (= latitude). When an edge spans more than 180° of longitude
 * the polygon crosses the antimeridian: negative longitudes are shifted by +360 (`wrap`), and the compiler shifts
 * the tested point the same way. Edges are straight lines in this plane, not great circles (fine at city scale).
 */
export function planar(v: Array<[number, number]>): { xs: number[]; ys: number[]; wrap: boolean } {
  const wrap = v.some((p, i) => Math.abs(p[1] - v[(i + 1) % v.length][1]) > 180);
  return { xs: v.map((p) => (wrap && p[1] < 0 ? p[1] + 360 : p[1])), ys: v.map((p) => p[0]), wrap };
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

function segmentsTouch(...p: [number, number, number, number, number, number, number, number]): boolean {
  const [ax, ay, bx, by, cx, cy, dx, dy] = p;
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 !== o2 && o3 !== o4) return true; // proper crossing, or an endpoint touching the other segment
  return (
    (o1 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (o2 === 0 && onSegment(ax, ay, bx, by, dx, dy)) ||
    (o3 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (o4 === 0 && onSegment(cx, cy, dx, dy, bx, by))
  );
}
