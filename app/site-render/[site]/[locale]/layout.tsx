import type { ReactNode } from "react";
import { headers } from "next/headers";
import { setRequestLocale } from "next-intl/server";
import { getTranslations } from "next-intl/server";
import { loadSiteView } from "@/app/_site/context";
import { SiteFooter, SiteHeader } from "@/app/_site/components/chrome";
import { MetaPixelBase } from "@/app/_site/components/meta-pixel";
import "@/app/_site/site.css";

/** Every page of a rendered site: the site (or 404), its header, menu, language switcher and footer. */
export default async function SiteLayout({ children, params }: { children: ReactNode; params: Promise<{ site: string; locale: string }> }) {
  const { site: siteSegment, locale } = await params;
  const site = await loadSiteView(siteSegment, locale);
  setRequestLocale(site.locale);
  const t = await getTranslations("nav");
  const tp = await getTranslations("preview");
  const path = (await headers()).get("x-site-path") || "/";
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
