import type { Metadata } from "next";
import { getTranslations } from "@/app/site-render/_site/translations";
import { proxiedSite } from "@/app/site-render/_site/proxied-site";
import { SiteFrame } from "@/app/site-render/_site/components/site-frame";
import { NotFoundBody } from "@/app/site-render/_site/components/not-found-body";

/** The tab says what happened, in the visitor's language, instead of the service's name. */
export async function generateMetadata(): Promise<Metadata> {
  const { locale, missing } = await proxiedSite();
  if (!locale) return { title: "Page not found" };
  return { title: (await getTranslations("notFound"))(missing === "site" ? "siteTitle" : "title") };
}

const plain = { fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" };

/**
 * Any address no route matches, and what the proxy found missing before rendering (an unknown
 * site, language, listing or place: proxy.ts sends those here, where Next.js renders the 404 on the
 * server). On a site that exists: within the site's own frame, with links to its catalogue and
 * home. On an unknown site's host: a short translated page. On the service's own host: a short
 * English page. All have a `<main>`.
 */
export default async function NotFound() {
  const { locale, missing, site, path } = await proxiedSite();
  if (!locale) {
    return (
      <main style={{ maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
        <h1>Page not found</h1>
        <p>
          Nothing answers at this address. The API lives under <a href="/api/docs">/api/docs</a>.
        </p>
      </main>
    );
  }
  const t = await getTranslations("notFound");
  if (site) {
    return (
      <SiteFrame site={site} path={path}>
        <NotFoundBody site={site} />
      </SiteFrame>
    );
  }
  if (missing === "site") {
    return (
      <main id="main" style={plain}>
        <h1>{t("siteTitle")}</h1>
        <p>{t("siteText")}</p>
      </main>
    );
  }
  return (
    <main id="main" style={plain}>
      <h1>{t("title")}</h1>
      <p>{t("text")}</p>
      <p>
        <a href={locale !== "pt-BR" ? `/${locale}` : "/"}>{t("home")}</a>
      </p>
    </main>
  );
}
