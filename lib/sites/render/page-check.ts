/**
 * What the proxy checks before a site page renders, so an unknown site or listing answers a 404
 * page rendered on the server. A `notFound()` thrown while a page renders gets, in Next.js 16,
 * an empty `<html id="__next_error__">` filled in only by JavaScript (vercel/next.js#62228): blank
 * without JavaScript and in link previews. An address no route matches is rendered on the server,
 * so the proxy sends what it knows is missing there instead (docs/decisions.md).
 */
import { findPropertyDetail, type FoundDetail } from "../property-detail";
import { publicCollection, publicEntry } from "../../cms/public-cms";
import { siteBuilding } from "../developments";
import { decodeSegment, listingRefOf, type SiteKey } from "./host-routing";
import { locationPageOf, locationSegmentsOf } from "./location-page";
import { handOver } from "./lookup-handoff";
import { orNull, resolveSite, type ResolvedSite } from "./resolve-site";

export type PageCheck =
  /** Render the page; `lookup` is the handed-over listing lookup's token, if one was made. */
  | { found: true; lookup?: string }
  /** No such site, a language its tenant has not enabled, no such (published) listing, or no such page (a place, an entry, a development). */
  | { found: false; missing: "site" | "locale" | "listing" | "page" };

/** The handover key of a listing lookup: the page asks for the same one. */
export const listingLookupKey = (siteId: string, ref: string) => `listing:${siteId}:${ref}`;

export async function checkSitePage(key: SiteKey, locale: string, rest: string): Promise<PageCheck> {
  const site = await resolveSite(key, locale);
  if (typeof site === "string") return { found: false, missing: site };
  const segments = locationSegmentsOf(rest);
  if (segments) return (await locationPageOf(site.db, site.row, segments)) ? { found: true } : { found: false, missing: "page" };
  const ref = listingRefOf(rest);
  if (ref === null) return (await otherPageExists(site, rest)) ? { found: true } : { found: false, missing: "page" };
  const lookup = orNull(findPropertyDetail(site.db, site.row, ref));
  if (!(await lookup)) return { found: false, missing: "listing" };
  return { found: true, lookup: handOver(listingLookupKey(site.row.id, ref), lookup satisfies Promise<FoundDetail | null>) };
}

/** Addresses with a page of their own (the `[collection]` route never sees them). */
const OWN_ROUTES = new Set(["imoveis", "imovel", "contato", "lead", "empreendimento", "comparar"]);
const ONE_SEGMENT_ROUTES = new Set(["contato", "lead", "comparar"]);

/**
 * The site's other pages, asked as their pages ask: a development (where the tenant shows them), a
 * CMS collection or an extra page (one segment), a CMS entry (two). Anything else is left to the
 * page; a doubt always renders it (its own `notFound()` still answers 404), never a wrong 404.
 */
async function otherPageExists({ db, row, config }: ResolvedSite, rest: string): Promise<boolean> {
  const parts = rest.split("/").filter(Boolean).map(decodeSegment);
  if (parts[0] === "empreendimento" && parts.length === 2) {
    return config.tenantConfig.primaryMarketEnabled && (await orNull(siteBuilding(db, row, parts[1]))) !== null;
  }
  // Saved-search alerts: the catalogue form's endpoint and the links of its messages.
  if (parts[0] === "alertas") return parts.length === 1 || (parts.length === 3 && (parts[1] === "confirmar" || parts[1] === "sair"));
  // Deeper than any route (the catalogue's and listings' addresses never come here): no page.
  if (parts.length > 2) return false;
  if (!parts.length) return true;
  // The contact page, the compare view and the lead form's endpoint have one segment; `/imovel` and
  // `/empreendimento` need a code or an id (handled above), and none takes a second segment.
  if (OWN_ROUTES.has(parts[0])) return parts.length === 1 && ONE_SEGMENT_ROUTES.has(parts[0]);
  // An extra page of the site at its `path`, in every language, as its page finds it (app/site-render/_site/pages.ts).
  const pages = (config.configuration.otherConfigs as Record<string, unknown> | null)?.pages;
  const path = `/${parts.join("/")}`;
  if (Array.isArray(pages) && pages.some((p) => p && typeof p === "object" && (p as Record<string, unknown>).path === path)) return true;
  const collection = await orNull(publicCollection(db, row, parts[0]));
  if (parts.length === 1) return collection !== null;
  return collection !== null && (await orNull(publicEntry(db, row, parts[0], parts[1]))) !== null;
}
