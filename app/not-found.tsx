import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { SITE_LOCALES } from "@/lib/sites/render/host-routing";

/** The site's locale the proxy set on this request; only a known one (it ends up in a link). */
async function siteLocale() {
  const header = (await headers()).get("x-next-intl-locale");
  return SITE_LOCALES.find((l) => l === header);
}

/** The tab says what happened, in the visitor's language, instead of the service's name. */
export async function generateMetadata(): Promise<Metadata> {
  if (!(await siteLocale())) return { title: "Page not found" };
  return { title: (await getTranslations("notFound"))((await noSuchSite()) ? "siteTitle" : "title") };
}

/** The proxy found no published site at this address (proxy.ts): no home page to link to. */
const noSuchSite = async () => (await headers()).get("x-site-missing") === "site";

/**
 * Any address no route matches, and what the proxy found missing before rendering (an unknown
 * site or listing: proxy.ts sends those here, where Next.js renders the 404 on the server). On a
 * site's host (the proxy sets its locale) the message is the site's, translated; on the service's
 * own host a short English page. Both have a `<main>`.
 */
export default async function NotFound() {
  const locale = await siteLocale();
  if (locale) {
    const t = await getTranslations("notFound");
    if (await noSuchSite()) {
      return (
        <main id="main" style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
          <h1>{t("siteTitle")}</h1>
          <p>{t("siteText")}</p>
        </main>
      );
    }
    return (
      <main id="main" style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
        <h1>{t("title")}</h1>
        <p>{t("text")}</p>
        <p><a href={locale !== "pt-BR" ? `/${locale}` : "/"}>{t("home")}</a></p>
      </main>
    );
  }
  return (
    <main style={{ maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Page not found</h1>
      <p>Nothing answers at this address. The API lives under <a href="/api/docs">/api/docs</a>.</p>
    </main>
  );
}
