import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { jsonColumn, rowsOf } from "../../db/rows";
import { listings, type SiteRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import type { SearchHit } from "../search/engine";
import { FILTER_SCHEMA } from "../search/fields";
import { compileFilter } from "../search/filter";
import { scopeSql } from "../search/postgres/scope-sql";
import { UUID_PATTERN } from "../schemas/uuid";
import { siteCatalogue } from "./site-catalogue";

/** Listing codes are short and plain; anything else cannot name a listing. */
const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

export const propertyNotFound = () => notFound("Property not found");

/** A listing id from a UUID, or from a listing code of the site's tenant (codes are unique per tenant). */
async function listingIdOf(db: DbOrTx, site: SiteRow, ref: string): Promise<string | null> {
  if (UUID_PATTERN.test(ref)) return ref.toLowerCase();
  if (!CODE_PATTERN.test(ref)) return null;
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.tenantId, site.tenantId), sql`upper(${listings.listingCode}) = ${ref.toUpperCase()}`))
    .limit(1);
  return row?.id ?? null;
}

/**
 * A listing as the site's visitors may see it, by UUID or listing code (a partner's listing by
 * its UUID), or null. It is checked with exactly the predicates of the site's search (the
 * engine's scope SQL and the site's criteria) on the search table, by primary key: the detail
 * page, the broker card and the similar listings can never show a listing the search would not,
 * and a lookup costs two index reads instead of a whole search.
 */
export async function findSiteListing(db: DbOrTx, site: SiteRow, ref: string): Promise<SearchHit | null> {
  const id = await listingIdOf(db, site, ref);
  if (!id) return null;
  const { scope, criteria } = await siteCatalogue(db, site);
  const where = [sql`d.listing_id = ${id}::uuid`, scopeSql(scope), ...criteria.map((c) => compileFilter(c, FILTER_SCHEMA))];
  const res = await db.execute(sql`
    select d.tenant_id, x.doc from search_documents d join search_texts x on x.listing_id = d.listing_id
    where ${sql.join(where, sql` AND `)} limit 1`);
  const [row] = rowsOf<{ tenant_id: string; doc: unknown }>(res);
  if (!row) return null;
  return { document: jsonColumn<Record<string, unknown>>(row.doc), highlights: [], highlight: {}, isNetworkListing: row.tenant_id !== site.tenantId };
}
