import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { findSiteView } from "@/app/_site/context";
import { href } from "@/app/_site/links";
import { SiteFrame } from "@/app/_site/components/site-frame";
import { SITE_LOCALES } from "@/lib/sites/render/host-routing";

/** The site's locale the proxy set on this request; only a known one (it ends up in a link). */
async function siteLocale() {
  const header = (await headers()).get("x-next-intl-locale");
  return SITE_LOCALES.find((l) => l === header);
}

/** The proxy found no published site at this address (proxy.ts): no home page to link to. */
const noSuchSite = async () => (await headers()).get("x-site-missing") === "site";

/** The tab says what happened, in the visitor's language, instead of the service's name. */
export async function generateMetadata(): Promise<Metadata> {
  if (!(await siteLocale())) return { title: "Page not found" };
  return { title: (await getTranslations("notFound"))((await noSuchSite()) ? "siteTitle" : "title") };
}

const plain = { fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" };

/**
 * Any address no route matches, and what the proxy found missing before rendering (an unknown
 * site, language or listing: proxy.ts sends those here, where Next.js renders the 404 on the
 * server). On a site that exists (the proxy names every site request's site in `x-site-key`):
 * within the site's own frame, with links to its catalogue and home. On an unknown site's host: a short translated page. On the
 * service's own host: a short English page. All have a `<main>`.
 */
export default async function NotFound() {
  const locale = await siteLocale();
  if (!locale) {
    return (
      <main style={{ maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
        <h1>Page not found</h1>
        <p>Nothing answers at this address. The API lives under <a href="/api/docs">/api/docs</a>.</p>
      </main>
    );
  }
  const t = await getTranslations("notFound");
  if (await noSuchSite()) {
    return (
      <main id="main" style={plain}>
        <h1>{t("siteTitle")}</h1>
        <p>{t("siteText")}</p>
      </main>
    );
  }
  const h = await headers();
  const key = h.get("x-site-key");
  // No site (or the database failing now): the plain page below, never an error on a 404.
  const site = key ? await findSiteView(key, locale).catch(() => null) : null;
  if (site) {
    const th = await getTranslations("home");
    return (
      <SiteFrame site={site} path={h.get("x-site-path") || "/"}>
        <div className="notfound wrap">
          <h1>{t("title")}</h1>
          <p className="muted">{t("text")}</p>
          <p className="actions">
            <a className="btn" href={href(site, "/imoveis")}>{th("seeAll")}</a>
            <a href={href(site, "/")}>{t("home")}</a>
          </p>
        </div>
      </SiteFrame>
    );
  }
  return (
    <main id="main" style={plain}>
      <h1>{t("title")}</h1>
      <p>{t("text")}</p>
      <p><a href={locale !== "pt-BR" ? `/${locale}` : "/"}>{t("home")}</a></p>
    </main>
  );
}
