import { FavouritesBar } from "@/app/_ui/favourites/favourites-bar";
import { translator } from "@/lib/i18n/translator";
import type { SiteView } from "../context";
import { href } from "../links";

/**
 * The bar to the compare view on every page of a site (hidden until the visitor has a favourite),
 * and the script that runs the hearts, the bar and the visitor's id (`/favourites.js`, deferred).
 */
export function FavouritesIsland({ site }: { site: SiteView }) {
  const t = translator(site.locale, "favourites");
  // The count, pluralised in the browser from the two forms the messages give.
  return (
    <>
      <FavouritesBar
        compareHref={href(site, "/comparar")}
        one={t("bar", { count: 1 }).replace("1", "{n}")}
        other={t("bar", { count: 2 }).replace("2", "{n}")}
        compare={t("compare")}
      />
      <script src="/favourites.js" defer />
    </>
  );
}
