import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jsonColumn, rowsOf } from "../../../db/rows";
import type { FacetCount } from "../engine";
import { columnOf, fieldByName } from "../fields";
import { fieldColumnSql } from "./price-sql";

type Row = { f: string; v: string; n: number | string; tv: number | string };

/**
 * Facet counts over every match (not just the page), in one statement: the matches are read once
 * and grouped per field; `string[]` fields count each element. Values come back as text, numbers
 * without trailing zeros, as Typesense writes them. Order: count desc, then shorter, then greater.
 * A price the reader may not see (`hidden`, see price-sql.ts) is NULL: neither counted nor in the stats.
 */
export async function facetCounts(db: Db, where: SQL, fields: string[], max: number, hidden: SQL | null = null): Promise<FacetCount[]> {
  if (!fields.length) return [];
  // With hidden prices, the predicate becomes a column of a derived table: GROUPING SETS needs the very same
  // expression in `grouping()` and `group by`, and its bind parameters would make two copies differ.
  const from = hidden ? sql`(select d.*, ${hidden} as price_hidden from search_index d where ${where}) d` : sql`search_index d`;
  const filter = hidden ? sql`true` : where;
  const hiddenCol = hidden ? sql`d.price_hidden` : null;
  const valueOf = (name: string, x: SQL) => {
    const t = fieldByName(name)!.type;
    return t === "float" ? sql`trim_scale(${x}::numeric)::text` : t === "string" || t === "string[]" ? x : sql`${x}::text`;
  };
  const scalars = fields.filter((n) => fieldByName(n)!.type !== "string[]");
  const arrays = fields.filter((n) => fieldByName(n)!.type === "string[]");
  const groups: SQL[] = [];
  // Scalar fields: one pass over the matches with GROUPING SETS, one hash table per field.
  if (scalars.length) {
    const cols = scalars.map((n) => fieldColumnSql(n, hiddenCol));
    const field = sql`case ${sql.join(scalars.map((n, i) => sql`when grouping(${cols[i]}) = 0 then ${n}::text`), sql` `)} end`;
    const value = sql`coalesce(${sql.join(scalars.map((n, i) => valueOf(n, cols[i])), sql`, `)})`;
    groups.push(sql`select ${field} as f, ${value} as v, count(*) as n from ${from} where ${filter}
      group by grouping sets (${sql.join(cols.map((c) => sql`(${c})`), sql`, `)})`);
  }
  // string[] fields count each element.
  for (const name of arrays) {
    const col = sql.identifier(columnOf(name));
    groups.push(sql`select ${name}::text as f, x as v, count(*) as n from ${from}, unnest(d.${col}) as x where ${filter} group by x`);
  }
  const res = await db.execute(sql`
    select f, v, n, tv from (
      select g.*, count(*) over (partition by f) as tv,
             row_number() over (partition by f order by n desc, length(v), v desc) as rk
      from (${sql.join(groups, sql` union all `)}) g
      where v is not null
    ) ranked where rk <= ${max}`);
  const rows = rowsOf<Row>(res);
  const stats = await numericStats(db, from, filter, fields.filter((n) => !["string", "string[]", "bool"].includes(fieldByName(n)!.type)), hiddenCol);
  return fields.map((name) => {
    const mine = rows.filter((r) => r.f === name);
    return {
      field_name: name,
      sampled: false,
      counts: mine.map((r) => ({ count: Number(r.n), highlighted: r.v, value: r.v })),
      stats: { ...(stats[name] ?? {}), total_values: Number(mine[0]?.tv ?? 0) },
    };
  });
}

async function numericStats(db: Db, from: SQL, where: SQL, fields: string[], hidden: SQL | null) {
  if (!fields.length) return {} as Record<string, { min: number; max: number; sum: number; avg: number }>;
  const exprs = fields.map((n) => {
    const c = fieldColumnSql(n, hidden);
    return sql`json_build_object('min', min(${c}), 'max', max(${c}), 'sum', sum(${c}), 'avg', avg(${c}))`;
  });
  const res = await db.execute(sql`select ${sql.join(exprs.map((e, i) => sql`${e} as ${sql.identifier(`s${i}`)}`), sql`, `)} from ${from} where ${where}`);
  const [row] = rowsOf<Record<string, unknown>>(res);
  const out: Record<string, { min: number; max: number; sum: number; avg: number }> = {};
  fields.forEach((n, i) => {
    const v = row[`s${i}`];
    const s = jsonColumn<{ min: number | null; max: number | null; sum: number | null; avg: number | null }>(v);
    if (s.min !== null) out[n] = { min: Number(s.min), max: Number(s.max), sum: Number(s.sum), avg: Number(s.avg) };
  });
  return out;
}
