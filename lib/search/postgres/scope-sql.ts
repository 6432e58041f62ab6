import { sql, type SQL } from "drizzle-orm";
import type { SearchScope } from "../engine";

const uuidArray = (ids: string[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;

/**
 * The tenant and access predicate. It is ANDed around the user's filter at the root of the WHERE
 * clause, so no `filter_by` can widen it: the user's expression only ever narrows this set.
 */
export function scopeSql(s: SearchScope): SQL {
  const access =
    s.access.kind === "all"
      ? sql`true`
      : sql`(d.visibility = 'public' OR d.assigned_to_id = ${s.access.userId}::uuid OR d.created_by_id = ${s.access.userId}::uuid
          OR d.property_created_by_id = ${s.access.userId}::uuid)`;
  const own = sql`(d.tenant_id = ${s.tenantId}::uuid AND ${access})`;
  // Other tenants' listings come in only through a shared network, and only public ones on air.
  const shared = s.networkIds.length
    ? sql` OR (d.tenant_id <> ${s.tenantId}::uuid AND d.network_ids && ${uuidArray(s.networkIds)} AND d.visibility = 'public' AND d.on_air)`
    : sql``;
  const publicOnly = s.publicOnly ? sql` AND d.visibility = 'public' AND d.stage = ${s.publicOnly.activeStage}` : sql``;
  return sql`((${own}${shared})${publicOnly})`;
}
