import { arr, obj, str, type Doc } from "@/lib/listings/view/doc-fields";
import { ItineraryView, orderedStops } from "./itinerary-view";
import { ListingView } from "./listing-view";
import { SellerReportView } from "./seller-report-view";
import { agentOf, listingHref, pageLink, type ShareView } from "./share-view";
import { ShortlistView } from "./shortlist-view";

/** The page body of a resolved link, by kind (spec 2 §2.8). */
export function ShareBody({ view }: { view: ShareView }) {
  const e = view.answer.entity;
  switch (e.type) {
    case "listing":
      return <ListingView view={view} doc={obj(e.listing)} property={obj(e.property)} medias={arr(e.medias)} agent={agentOf(e)} action={view.base} />;
    case "seller_report":
      return <SellerReportView view={view} />;
    case "shortlist":
      return <ShortlistView view={view} />;
    case "visit_itinerary":
      return <ItineraryView view={view} />;
    default:
      return null;
  }
}

/** The listings of a shortlist or an itinerary (in its stops' order), as the resolve gave them. */
const memberDocs = (e: Doc): Doc[] =>
  e.type === "shortlist" ? arr(e.listings).map(obj) : e.type === "visit_itinerary" ? orderedStops(e).map((s) => s.listing) : [];

/** One listing of a shortlist or an itinerary by id, or null when it is not one of them. */
export const memberDoc = (e: Doc, listingId: string): Doc | null => memberDocs(e).find((d) => str(d.id) === listingId) ?? null;

/** One listing of a shortlist or an itinerary, from the document the resolve gave for it, with the way back and on. Null when it is not one of them. */
export function MemberListing({ view, listingId }: { view: ShareView; listingId: string }) {
  const e = view.answer.entity;
  const docs = memberDocs(e);
  const i = docs.findIndex((d) => str(d.id) === listingId);
  if (i < 0) return null;
  const t = view.t;
  const name = e.type === "shortlist" ? str(obj(e.shortlist).name) : str(obj(e.itinerary).name);
  const prev = docs[i - 1],
    next = docs[i + 1];
  const position = t("share.positionOf", { n: i + 1, total: docs.length });
  return (
    <>
      <nav className="pager pad" aria-label={position}>
        <a href={pageLink(view, view.base)}>← {t("share.backTo", { name })}</a>
        <span className="muted">{position}</span>
        {prev && (
          <a href={pageLink(view, listingHref(view.base, str(prev.id)))} rel="prev">
            {t("share.previous")}
          </a>
        )}
        {next && (
          <a href={pageLink(view, listingHref(view.base, str(next.id)))} rel="next">
            {t("share.next")}
          </a>
        )}
      </nav>
      <ListingView view={view} doc={docs[i]} agent={agentOf(e)} action={listingHref(view.base, listingId)} />
    </>
  );
}
