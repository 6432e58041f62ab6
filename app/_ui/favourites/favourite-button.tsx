const HEART = "M12 21s-7.5-4.6-9.6-9.3C1 8.4 3 5 6.4 5c2 0 3.4 1.1 4.1 2.3h3C14.2 6.1 15.6 5 17.6 5 21 5 23 8.4 21.6 11.7 19.5 16.4 12 21 12 21z";

export function HeartIcon({ size = 22 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d={HEART} />
    </svg>
  );
}

/**
 * The heart of a listing: a toggle button (`aria-pressed`) over the browser's list. Rendered
 * `hidden`: `/favourites.js` (loaded by the site frame) reads the list, presses and shows it, so a
 * page without JavaScript has no control that cannot work. `label` names the listing
 * ("Favoritar: Apartamento em Pinheiros"). Plain markup, no client component: see docs/decisions.md.
 */
export function FavouriteButton({ id, label, className = "fav" }: { id: string; label: string; className?: string }) {
  return (
    <button type="button" className={className} data-fav={id} aria-pressed="false" aria-label={label} title={label} hidden>
      <HeartIcon />
    </button>
  );
}
