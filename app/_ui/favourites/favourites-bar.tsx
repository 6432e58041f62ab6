"use client";

import { useEffect, useState } from "react";
import { HeartIcon } from "./favourite-button";
import { favourites, subscribe } from "./store";

/** The link to the compare view with the count of favourites; shown once there is one. `one`/`other` hold `{n}`. */
export function FavouritesBar({
  siteId,
  compareHref,
  one,
  other,
  compare,
}: {
  siteId: string;
  compareHref: string;
  one: string;
  other: string;
  compare: string;
}) {
  const [ids, setIds] = useState<string[]>([]);
  useEffect(() => {
    const read = () => setIds(favourites(siteId));
    read();
    return subscribe(siteId, read);
  }, [siteId]);
  return (
    <a className="fav-bar" href={`${compareHref}?ids=${ids.slice(0, 4).join(",")}`} data-fav-bar="" hidden={ids.length === 0}>
      <HeartIcon size={20} />
      <span>{(ids.length === 1 ? one : other).replace("{n}", String(ids.length))}</span> · {compare}
    </a>
  );
}
