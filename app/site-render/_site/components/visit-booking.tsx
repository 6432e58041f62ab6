export type VisitBookingLabels = {
  title: string;
  intro: string;
  loading: string;
  none: string;
  chooseTime: string;
  day: string;
  /** `{zone}` (the zone's localized name) and `{city}` (from its IANA name) filled in the browser. */
  zone: string;
  name: string;
  phone: string;
  email: string;
  note: string;
  consent: string;
  book: string;
  booking: string;
  booked: string;
  taken: string;
  invalid: string;
  limited: string;
  failed: string;
};

/**
 * The listing page's visit booking: the section and its texts, rendered here; `/visit-booking.js`
 * (a plain deferred script, no client component: docs/decisions.md) asks the listing's free slots
 * (`visit-slots`, 14 days) when the section nears the screen or the browser is idle, lets the
 * visitor pick a day (a compact row of day buttons, so the section stays short on a phone) and one
 * of its times (radio buttons), and books it (`visits`). Times are shown in the broker's
 * availability zone, named, not the browser's: a visitor abroad books the time the broker means.
 * A slot taken meanwhile says so and reloads the list.
 */
export function VisitBooking({ siteId, listingId, locale, labels }: { siteId: string; listingId: string; locale: string; labels: VisitBookingLabels }) {
  return (
    <section
      className="box visit"
      id="visit"
      aria-labelledby="visit-title"
      data-visit-api={`/api/sites/${siteId}/listings/${encodeURIComponent(listingId)}`}
      data-locale={locale}
      data-labels={JSON.stringify(labels)}
    >
      <h2 id="visit-title">{labels.title}</h2>
      <div data-visit-body="">
        <p className="muted" aria-live="polite">
          {labels.loading}
        </p>
      </div>
      <script src="/visit-booking.js" defer />
    </section>
  );
}
