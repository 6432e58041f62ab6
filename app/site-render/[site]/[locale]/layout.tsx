import type { ReactNode } from "react";
import { headers } from "next/headers";
import { setRequestLocale } from "next-intl/server";
import { loadSiteView } from "@/app/site-render/_site/context";
import { SiteFrame } from "@/app/site-render/_site/components/site-frame";
import { noteSitePage, RENDER_NOTE_HEADER } from "@/lib/page-cache/render-notes";

/** Every page of a rendered site: the site (or 404), its header, menu, language switcher and footer. */
export default async function SiteLayout({ children, params }: { children: ReactNode; params: Promise<{ site: string; locale: string }> }) {
  const { site: siteSegment, locale } = await params;
  const site = await loadSiteView(siteSegment, locale);
  setRequestLocale(site.locale);
  const h = await headers();
  const path = h.get("x-site-path") || "/";
  // Tells the page cache what this page shows (a change to any of it drops the page); previews never are cached.
  if (!site.preview) await noteSitePage(h.get(RENDER_NOTE_HEADER), site.db, site.row);
  return (
    <SiteFrame site={site} path={path}>
      {children}
    </SiteFrame>
  );
}
