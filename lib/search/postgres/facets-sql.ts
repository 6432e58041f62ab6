import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import type { FacetCount } from "../engine";
import { columnOf, fieldByName } from "../fields";

type Row = { f: string; v: string; n: number | string; tv: number | string };

/**
 * Facet counts over every match (not just the page), in one statement: the matches are read once
 * and grouped per field; `string[]` fields count each element. Values come back as text, numbers
 * without trailing zeros, as Typesense writes them. Order: count desc, then shorter, then greater.
 */
export async function facetCounts(db: Db, where: SQL, fields: string[], max: number): Promise<FacetCount[]> {
  if (!fields.length) return [];
  const groups = fields.map((name) => {
    const f = fieldByName(name)!;
    const col = sql.identifier(columnOf(name));
    const value =
      f.type === "float" ? sql`trim_scale(x::numeric)::text` : f.type === "string" || f.type === "string[]" ? sql`x` : sql`x::text`;
    const from = f.type === "string[]" ? sql`m, unnest(m.${col}) as x` : sql`(select m.${col} as x from m) s`;
    return sql`select ${name}::text as f, ${value} as v, count(*) as n from ${from} where x is not null group by x`;
  });
  const cols = sql.join(fields.map((n) => sql`d.${sql.identifier(columnOf(n))}`), sql`, `);
  const res = await db.execute(sql`
    with m as (select ${cols} from search_index d where ${where})
    select f, v, n, tv from (
      select g.*, count(*) over (partition by f) as tv,
             row_number() over (partition by f order by n desc, length(v), v desc) as rk
      from (${sql.join(groups, sql` union all `)}) g
    ) ranked where rk <= ${max}`);
  const rows = rowsOf<Row>(res);
  const stats = await numericStats(db, where, fields.filter((n) => !["string", "string[]", "bool"].includes(fieldByName(n)!.type)));
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

async function numericStats(db: Db, where: SQL, fields: string[]) {
  if (!fields.length) return {} as Record<string, { min: number; max: number; sum: number; avg: number }>;
  const exprs = fields.map((n) => {
    const c = sql`d.${sql.identifier(columnOf(n))}`;
    return sql`json_build_object('min', min(${c}), 'max', max(${c}), 'sum', sum(${c}), 'avg', avg(${c}))`;
  });
  const res = await db.execute(sql`select ${sql.join(exprs.map((e, i) => sql`${e} as ${sql.identifier(`s${i}`)}`), sql`, `)} from search_index d where ${where}`);
  const [row] = rowsOf<Record<string, unknown>>(res);
  const out: Record<string, { min: number; max: number; sum: number; avg: number }> = {};
  fields.forEach((n, i) => {
    const v = row[`s${i}`];
    const s = (typeof v === "string" ? JSON.parse(v) : v) as { min: number | null; max: number | null; sum: number | null; avg: number | null };
    if (s.min !== null) out[n] = { min: Number(s.min), max: Number(s.max), sum: Number(s.sum), avg: Number(s.avg) };
  });
  return out;
}
