import { HeartIcon } from "./favourite-button";

/**
 * The link to the compare view with the count of favourites, rendered `hidden`; `/favourites.js`
 * shows it once there is one, fills the count (`one`/`other` hold `{n}`) and the ids in its link.
 */
export function FavouritesBar({ compareHref, one, other, compare }: { compareHref: string; one: string; other: string; compare: string }) {
  return (
    <a className="fav-bar" href={compareHref} data-fav-bar="" data-href={compareHref} data-one={one} data-other={other} hidden>
      <HeartIcon size={20} />
      <span data-fav-count="">{other.replace("{n}", "0")}</span> · {compare}
    </a>
  );
}
