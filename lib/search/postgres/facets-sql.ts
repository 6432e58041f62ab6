import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jsonColumn, rowsOf } from "../../../db/rows";
import type { FacetCount } from "../engine";
import { columnOf, fieldByName } from "../fields";
import { fieldColumnSql } from "./price-sql";

type Row = { f: string; v: string | null; n: number | string; tv: number | string; s: unknown };
type Stats = Record<string, { min: number; max: number; sum: number; avg: number }>;

/**
 * Facet counts over every match (not just the page), in one statement: the matches are read once
 * and grouped per field; `string[]` fields count each element. Values come back as text, numbers
 * without trailing zeros, as Typesense writes them. Order: count desc, then shorter, then greater
 * (byte order, `C` collation, so the in-memory engine orders ties the same whatever the database's collation).
 * A price the reader may not see (`hidden`, see price-sql.ts) is NULL: neither counted nor in the stats.
 *
 * When a scalar field is faceted, the same pass also gives the number of matches (the empty
 * grouping set) and the numeric stats, so `total` spares the engine a second scan for its count.
 */
export async function facetCounts(
  db: Db,
  where: SQL,
  fields: string[],
  max: number,
  hidden: SQL | null = null,
): Promise<{ facets: FacetCount[]; total: number | null }> {
  if (!fields.length) return { facets: [], total: null };
  // With hidden prices, the predicate becomes a column of a derived table: GROUPING SETS needs the very same
  // expression in `grouping()` and `group by`, and its bind parameters would make two copies differ.
  const from = hidden ? sql`(select d.*, ${hidden} as price_hidden from search_index d where ${where}) d` : sql`search_index d`;
  const filter = hidden ? sql`true` : where;
  const hiddenCol = hidden ? sql`d.price_hidden` : null;
  const valueText = (name: string, x: SQL) => {
    const t = fieldByName(name)!.type;
    return t === "float" ? sql`trim_scale(${x}::numeric)::text` : t === "string" || t === "string[]" ? x : sql`${x}::text`;
  };
  const scalars = fields.filter((n) => fieldByName(n)!.type !== "string[]");
  const arrays = fields.filter((n) => fieldByName(n)!.type === "string[]");
  const numeric = fields.filter((n) => !["string", "string[]", "bool"].includes(fieldByName(n)!.type));
  const groups: SQL[] = [];
  // Scalar fields: one pass over the matches with GROUPING SETS, one hash table per field, and the
  // empty set for the total and the stats (field '', value NULL).
  if (scalars.length) {
    const cols = scalars.map((n) => fieldColumnSql(n, hiddenCol));
    const field = sql`case ${sql.join(
      scalars.map((n, i) => sql`when grouping(${cols[i]}) = 0 then ${n}::text`),
      sql` `,
    )} else '' end`;
    const value = sql`coalesce(${sql.join(
      scalars.map((n, i) => valueText(n, cols[i])),
      sql`, `,
    )})`;
    const stats = numeric.length
      ? sql`json_build_array(${sql.join(
          numeric.map((n) => {
            const c = fieldColumnSql(n, hiddenCol);
            return sql`min(${c}), max(${c}), sum(${c}), avg(${c})`;
          }),
          sql`, `,
        )})`
      : sql`null::json`;
    groups.push(sql`select ${field} as f, ${value} as v, count(*) as n, ${stats} as s from ${from} where ${filter}
      group by grouping sets (${sql.join(
        cols.map((c) => sql`(${c})`),
        sql`, `,
      )}, ())`);
  }
  // string[] fields count each element.
  for (const name of arrays) {
    const col = sql.identifier(columnOf(name));
    groups.push(sql`select ${name}::text as f, x as v, count(*) as n, null::json as s from ${from}, unnest(d.${col}) as x where ${filter} group by x`);
  }
  const res = await db.execute(sql`
    with g as materialized (${sql.join(groups, sql` union all `)})
    select f, v, n, tv, null::json as s from (
      select g.f, g.v, g.n, count(*) over (partition by f) as tv,
             row_number() over (partition by f order by n desc, length(v), v collate "C" desc) as rk
      from g where v is not null
    ) ranked where rk <= ${max}
    union all
    select f, null, n, 0, s from g where f = ''`);
  const rows = rowsOf<Row>(res);
  const totalRow = rows.find((r) => r.f === "");
  const stats: Stats = {};
  if (totalRow && numeric.length) {
    const vals = jsonColumn<(number | string | null)[]>(totalRow.s);
    numeric.forEach((n, i) => {
      const [min, mx, sum, avg] = vals.slice(i * 4, i * 4 + 4);
      if (min !== null) stats[n] = { min: Number(min), max: Number(mx), sum: Number(sum), avg: Number(avg) };
    });
  }
  const facets = fields.map((name) => {
    const mine = rows.filter((r) => r.f === name);
    return {
      field_name: name,
      sampled: false as const,
      counts: mine.map((r) => ({ count: Number(r.n), highlighted: r.v as string, value: r.v as string })),
      stats: { ...(stats[name] ?? {}), total_values: Number(mine[0]?.tv ?? 0) },
    };
  });
  // No scalar facet: no empty grouping set, the caller counts. With one, a match-less search has no row at all.
  return { facets, total: scalars.length ? Number(totalRow?.n ?? 0) : null };
}
