"use client";

import { useEffect, useState } from "react";
import { favourites, subscribe, toggle } from "./store";

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
 * `hidden` on the server and shown once this island runs, so a page without JavaScript has no
 * control that cannot work. `label` names the listing ("Favoritar: Apartamento em Pinheiros").
 */
export function FavouriteButton({ siteId, id, label, className = "fav" }: { siteId: string; id: string; label: string; className?: string }) {
  const [pressed, setPressed] = useState<boolean | null>(null);
  useEffect(() => {
    const read = () => setPressed(favourites(siteId).includes(id));
    read();
    return subscribe(siteId, read);
  }, [siteId, id]);
  return (
    <button
      type="button"
      className={className}
      data-fav={id}
      aria-pressed={pressed === true}
      aria-label={label}
      title={label}
      hidden={pressed === null}
      onClick={() => toggle(siteId, id)}
    >
      <HeartIcon />
    </button>
  );
}
