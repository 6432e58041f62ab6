/**
 * The lead form's hidden `visitorId`, filled by `/favourites.js` (empty without JavaScript); sending
 * the form identifies the visitor, and the list is synced first so the deal finds it.
 */
export function VisitorIdField() {
  return <input type="hidden" name="visitorId" defaultValue="" data-visitor-id="" />;
}

/**
 * What this page tells the agency once, read by `/favourites.js`: the listings compared here
 * (`compared`, comma-separated ids), or a listing page opened by an identified visitor (`viewed`).
 */
export function VisitorSignal({ compared, viewed }: { compared?: string; viewed?: string }) {
  return <span hidden data-visitor-signal="" data-compared={compared} data-viewed={viewed} />;
}
