import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { SITE_LOCALES } from "@/lib/sites/render/host-routing";

/**
 * Any address no route matches. On a site's host (the proxy sets its locale) the message is the
 * site's, translated; on the service's own host a short English page. Both have a `<main>`.
 */
export default async function NotFound() {
  // The proxy sets it on a site's requests; only a known locale is used (it ends up in a link).
  const header = (await headers()).get("x-next-intl-locale");
  const locale = SITE_LOCALES.find((l) => l === header);
  if (locale) {
    const t = await getTranslations("notFound");
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
