import type { ReactNode } from "react";
import { headers } from "next/headers";
import { setRequestLocale } from "next-intl/server";
import { loadSiteView } from "@/app/site-render/_site/context";
import { SiteFrame } from "@/app/site-render/_site/components/site-frame";

/** Every page of a rendered site: the site (or 404), its header, menu, language switcher and footer. */
export default async function SiteLayout({ children, params }: { children: ReactNode; params: Promise<{ site: string; locale: string }> }) {
  const { site: siteSegment, locale } = await params;
  const site = await loadSiteView(siteSegment, locale);
  setRequestLocale(site.locale);
  const path = (await headers()).get("x-site-path") || "/";
  return (
    <SiteFrame site={site} path={path}>
      {children}
    </SiteFrame>
  );
}
