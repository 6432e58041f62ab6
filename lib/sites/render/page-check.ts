/**
 * What the proxy checks before a site page renders, so an unknown site or listing answers a 404
 * page rendered on the server. A `notFound()` thrown while a page renders gets, in Next.js 16,
 * an empty `<html id="__next_error__">` filled in only by JavaScript (vercel/next.js#62228): blank
 * without JavaScript and in link previews. An address no route matches is rendered on the server,
 * so the proxy sends what it knows is missing there instead (docs/decisions.md).
 */
import { findPropertyDetail, type FoundDetail } from "../property-detail";
import { listingRefOf, type SiteKey } from "./host-routing";
import { locationPageOf, locationSegmentsOf } from "./location-page";
import { handOver } from "./lookup-handoff";
import { orNull, resolveSite } from "./resolve-site";

export type PageCheck =
  /** Render the page; `lookup` is the handed-over listing lookup's token, if one was made. */
  | { found: true; lookup?: string }
  /** No such site, a language its tenant has not enabled, no such (published) listing, or no such place. */
  | { found: false; missing: "site" | "locale" | "listing" | "page" };

/** The handover key of a listing lookup: the page asks for the same one. */
export const listingLookupKey = (siteId: string, ref: string) => `listing:${siteId}:${ref}`;

export async function checkSitePage(key: SiteKey, locale: string, rest: string): Promise<PageCheck> {
  const site = await resolveSite(key, locale);
  if (typeof site === "string") return { found: false, missing: site };
  const segments = locationSegmentsOf(rest);
  if (segments) return (await locationPageOf(site.db, site.row, segments)) ? { found: true } : { found: false, missing: "page" };
  const ref = listingRefOf(rest);
  if (ref === null) return { found: true };
  const lookup = orNull(findPropertyDetail(site.db, site.row, ref));
  if (!(await lookup)) return { found: false, missing: "listing" };
  return { found: true, lookup: handOver(listingLookupKey(site.row.id, ref), lookup satisfies Promise<FoundDetail | null>) };
}
