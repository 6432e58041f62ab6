import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { docColumns, documentFromRow } from "../search/stored-document";
import type { SiteRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import type { SearchHit } from "../search/engine";
import { FILTER_SCHEMA } from "../search/fields";
import { compileFilter } from "../search/filter";
import { scopeSql } from "../search/postgres/scope-sql";
import { UUID_PATTERN } from "../schemas/uuid";
import { siteCatalogue, type SiteCatalogue } from "./site-catalogue";

/** Listing codes are short and plain; anything else cannot name a listing. */
const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

export const propertyNotFound = () => notFound("Property not found");

/**
 * The listing id a reference names, as SQL: a UUID as it is, a listing code of the site's tenant
 * (codes are unique per tenant) through a subquery, so the lookup stays one statement; null when
 * the reference cannot name a listing.
 */
function listingIdSql(site: SiteRow, ref: string): SQL | null {
  if (UUID_PATTERN.test(ref)) return sql`${ref.toLowerCase()}::uuid`;
  if (!CODE_PATTERN.test(ref)) return null;
  return sql`(select l.id from listings l where l.tenant_id = ${site.tenantId}::uuid and upper(l.listing_code) = ${ref.toUpperCase()} limit 1)`;
}

/**
 * A listing as the site's visitors may see it, by UUID or listing code (a partner's listing by
 * its UUID), or null. It is checked with exactly the predicates of the site's search (the
 * engine's scope SQL and the site's criteria) on the search table, by primary key: the detail
 * page, the broker card and the similar listings can never show a listing the search would not,
 * and a lookup is one statement of two index reads instead of a whole search.
 */
export async function findSiteListing(db: DbOrTx, site: SiteRow, ref: string, catalogue?: SiteCatalogue): Promise<SearchHit | null> {
  const id = listingIdSql(site, ref);
  if (!id) return null;
  const res = await db.execute(sql`
    select d.tenant_id, ${docColumns("d")} from search_index d
    where ${siteListingWhere(id, catalogue ?? (await siteCatalogue(db, site)))} limit 1`);
  const [row] = rowsOf<Record<string, unknown>>(res);
  if (!row) return null;
  return { document: documentFromRow(row), highlights: [], highlight: {}, isNetworkListing: row.tenant_id !== site.tenantId };
}

/** The conditions under which the site shows the listing `id` names (alias `d`: the search index). */
function siteListingWhere(id: SQL, { scope, criteria }: SiteCatalogue): SQL {
  return sql.join([sql`d.listing_id = ${id}`, scopeSql(scope), ...criteria.map((c) => compileFilter(c, FILTER_SCHEMA))], sql` AND `);
}

/**
 * A subquery with a row when the site shows the listing (a UUID), the same test as
 * `findSiteListing` without reading the document: for statements that need only the answer.
 */
export function siteListingSql(site: SiteRow, listingId: string, catalogue: SiteCatalogue): SQL {
  const id = listingIdSql(site, listingId);
  if (!id) return sql`select 1 where false`;
  return sql`select 1 from search_index d where ${siteListingWhere(id, catalogue)}`;
}

/**
 * The listings among `ids` (UUIDs) that the site's visitors may see, with the same predicates as
 * `findSiteListing`, in one statement; `ownOnly` leaves out partners' network listings.
 */
export async function findSiteListings(
  db: DbOrTx,
  site: SiteRow,
  ids: string[],
  opts: { ownOnly?: boolean; catalogue?: SiteCatalogue } = {},
): Promise<SearchHit[]> {
  const wanted = [...new Set(ids.filter((id) => UUID_PATTERN.test(id)).map((id) => id.toLowerCase()))];
  if (!wanted.length) return [];
  const { scope, criteria } = opts.catalogue ?? (await siteCatalogue(db, site));
  const where = [
    sql`d.listing_id = any(${`{${wanted.join(",")}}`}::uuid[])`,
    scopeSql(scope),
    ...criteria.map((c) => compileFilter(c, FILTER_SCHEMA)),
    ...(opts.ownOnly ? [sql`d.tenant_id = ${site.tenantId}::uuid`] : []),
  ];
  const res = await db.execute(sql`select d.tenant_id, ${docColumns("d")} from search_index d where ${sql.join(where, sql` AND `)}`);
  return rowsOf<Record<string, unknown>>(res).map((row) => ({
    document: documentFromRow(row),
    highlights: [],
    highlight: {},
    isNetworkListing: row.tenant_id !== site.tenantId,
  }));
}
