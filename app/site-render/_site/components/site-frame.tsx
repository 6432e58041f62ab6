import type { CSSProperties, ReactNode } from "react";
import { getTranslations } from "@/app/site-render/_site/translations";
import { ChatLauncher } from "@/app/_ui/chat-launcher";
import { brandPalette, brandVariables } from "@/lib/brand/brand-colors";
import { chatOnline } from "@/lib/sites/site-chat";
import type { SiteView } from "../context";
import { SiteFooter, SiteHeader } from "./chrome";
import { FavouritesIsland } from "./favourites";
import { MetaPixelBase } from "./meta-pixel";
import "@/app/site-render/_site/site.css";

const SITE_DEFAULT_COLOR = "#0b5cad";

/**
 * A site's frame around a page: skip link, preview banner, header with menu and language switcher,
 * the page in `<main>`, footer. The site layout and the 404 of a known site (app/not-found.tsx) share it.
 */
export async function SiteFrame({ site, path, children }: { site: SiteView; path: string; children: ReactNode }) {
  const t = await getTranslations("nav");
  const tp = await getTranslations("preview");
  // The tenant's colour with the text and link colours that read on it and on white (one brand module for every page).
  const palette = brandPalette(site.config.configuration.siteConfiguration.brand.primaryColor, SITE_DEFAULT_COLOR);
  return (
    // `data-static-page`: our server takes Next.js's client runtime out of this page (lib/sites/render/client-runtime.ts).
    <div className="site" style={brandVariables(palette) as CSSProperties} data-static-page="" data-site-id={site.row.id}>
      <a className="skip" href="#main">
        {t("skip")}
      </a>
      {site.preview && <p className="preview-banner">{tp("banner")}</p>}
      <SiteHeader site={site} path={path} />
      <main id="main">{children}</main>
      <SiteFooter site={site} />
      <MetaPixelBase site={site} />
      <FavouritesIsland site={site} />
      {site.row.chat && (
        <ChatLauncher
          api={`/api/sites/${site.row.id}/chat`}
          locale={site.locale}
          agencyName={site.name}
          greeting={site.row.chat.greeting}
          offlineMessage={site.row.chat.offlineMessage}
          online={chatOnline(site.row.chat.hours)}
        />
      )}
    </div>
  );
}
