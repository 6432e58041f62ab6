import { describe, expect, it } from "vitest";
import type { SearchScope } from "../../../lib/search/engine";
import { narrowAll } from "../../../lib/search/memory/evaluate";
import { QueryView, scopeMask } from "../../../lib/search/memory/query-view";
import { TenantIndex } from "../../../lib/search/memory/tenant-index";
import { toSearchRequest } from "../../../lib/search/params";

/**
 * Filters on low-cardinality columns run on per-value bitsets that every write must keep exact:
 * each query here is checked against the documents as written, whatever happened to the slots
 * (values changed, removals and reuse, a column passing 64 values, the index growing).
 */
type Doc = { id: string; type: "sale" | "rental"; photos: boolean | null; city: string | null };

function row(d: Doc): Record<string, unknown> {
  return {
    listing_id: d.id,
    listing_type: d.type,
    has_photos: d.photos,
    // No token columns: the index tokenizes each value itself.
    location_city: d.city,
    created_at: 1,
  };
}

const scope: SearchScope = { tenantId: "t", access: { kind: "all" }, networkIds: [] };
const QUERIES: [string, (d: Doc) => boolean][] = [
  ["listingType:=rental", (d) => d.type === "rental"],
  ["hasPhotos:true", (d) => d.photos === true],
  // Negations include documents without a value.
  ["hasPhotos:!=true", (d) => d.photos !== true],
  ["location_city:!=Recife && listingType:=sale", (d) => d.city !== "Recife" && d.type === "sale"],
  ["location_city:=[Recife, Natal] || hasPhotos:false", (d) => d.city === "Recife" || d.city === "Natal" || d.photos === false],
];

function check(ix: TenantIndex, docs: Map<string, Doc>) {
  const view = new QueryView(ix, scope);
  for (const [filter, want] of QUERIES) {
    const req = toSearchRequest({ q: "*", filter_by: filter }, { maxPerPage: 250 });
    const got = [...narrowAll(view, req.filters, scopeMask(view, scope))].map((i) => ix.ids[i]).sort();
    expect(got, filter).toEqual(
      [...docs.values()]
        .filter(want)
        .map((d) => d.id)
        .sort(),
    );
  }
}

describe("per-value bitsets of the in-memory index", () => {
  it("stay exact through changed values, removals, reused slots, a 65th value and growth", () => {
    const ix = new TenantIndex("t", 8);
    const docs = new Map<string, Doc>();
    const put = (d: Doc) => {
      docs.set(d.id, d);
      ix.upsert(row(d));
    };
    const cities = ["Recife", "Natal", null];
    for (let i = 0; i < 8; i++) put({ id: `a${i}`, type: i % 3 ? "sale" : "rental", photos: i % 4 === 0 ? null : i % 2 === 0, city: cities[i % 3] });
    check(ix, docs);
    expect(ix.codeBitsets("listingType")).not.toBeNull();
    expect(ix.codeBitsets("hasPhotos")).not.toBeNull();

    // Values change on both kinds of column.
    put({ ...docs.get("a1")!, type: "rental", photos: null });
    put({ ...docs.get("a4")!, photos: true, city: "Natal" });
    check(ix, docs);

    // A removal, and its slot reused by a document with other values.
    ix.remove("a2");
    docs.delete("a2");
    check(ix, docs);
    put({ id: "b1", type: "sale", photos: false, city: "Recife" });
    check(ix, docs);

    // Past the capacity (8 slots): the index grows and the bitsets are built again.
    for (let i = 0; i < 12; i++) put({ id: `c${i}`, type: "rental", photos: i % 2 === 1, city: "Natal" });
    check(ix, docs);

    // A column with more than 64 distinct values goes back to scans, still exact.
    for (let i = 0; i < 70; i++) put({ id: `d${i}`, type: "sale", photos: true, city: `Cidade ${i}` });
    check(ix, docs);
    expect(ix.codeBitsets("location_city")).toBeNull();
    expect(ix.codeBitsets("listingType")).not.toBeNull();
  });
});
