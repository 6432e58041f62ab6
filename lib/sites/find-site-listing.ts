import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { notFound } from "../errors/domain-errors";
import type { SearchHit } from "../search/engine";
import { parseFilter, type FilterNode } from "../search/filter";
import { FILTER_SCHEMA } from "../search/fields";
import { toSearchRequest } from "../search/params";
import { searchEngine } from "../search/search-engine";
import { UUID_PATTERN } from "../schemas/uuid";
import { siteCatalogue } from "./site-catalogue";

/** Listing codes are short and plain; anything else cannot name a listing. */
const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

export const propertyNotFound = () => notFound("Property not found");

/**
 * The filter that names one listing by UUID or listing code; null when the value can be neither.
 * Both forms are checked against strict patterns first, so the value cannot carry filter syntax.
 */
export function listingRefFilter(ref: string): FilterNode | null {
  if (UUID_PATTERN.test(ref)) return parseFilter(`id:=${ref.toLowerCase()}`, FILTER_SCHEMA);
  if (CODE_PATTERN.test(ref)) return parseFilter(`listingCode:=\`${ref}\``, FILTER_SCHEMA);
  return null;
}

/**
 * A listing as the site's visitors may see it, by UUID or listing code: found through the same
 * engine, scope and criteria as the site's search, so the detail page, the broker card and the
 * similar listings can never show a listing the search would not (private, out of the active
 * stage, outside the criteria, another tenant's unless shared and included). Null when not visible.
 */
export async function findSiteListing(db: DbOrTx, site: SiteRow, ref: string): Promise<SearchHit | null> {
  const byRef = listingRefFilter(ref);
  if (!byRef) return null;
  const { scope, criteria } = await siteCatalogue(db, site);
  const req = toSearchRequest({ q: "*", per_page: 1 }, { maxPerPage: 1, extraFilters: [...criteria, byRef] });
  const result = await (await searchEngine()).search(scope, req);
  return result.hits[0] ?? null;
}
