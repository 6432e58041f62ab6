import type { ReactNode } from "react";
import { getTranslations } from "@/app/_site/translations";
import type { SiteView } from "../context";
import { SiteFooter, SiteHeader } from "./chrome";
import { MetaPixelBase } from "./meta-pixel";
import "@/app/_site/site.css";

/**
 * A site's frame around a page: skip link, preview banner, header with menu and language switcher,
 * the page in `<main>`, footer. The site layout and the 404 of a known site (app/not-found.tsx) share it.
 */
export async function SiteFrame({ site, path, children }: { site: SiteView; path: string; children: ReactNode }) {
  const t = await getTranslations("nav");
  const tp = await getTranslations("preview");
  const color = site.config.configuration.siteConfiguration.brand.primaryColor;
  return (
    <div className="site" style={color ? ({ "--brand": color } as React.CSSProperties) : undefined}>
      <a className="skip" href="#main">{t("skip")}</a>
      {site.preview && <p className="preview-banner">{tp("banner")}</p>}
      <SiteHeader site={site} path={path} />
      <main id="main">{children}</main>
      <SiteFooter site={site} />
      <MetaPixelBase site={site} />
    </div>
  );
}
