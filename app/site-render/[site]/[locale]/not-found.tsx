import { getTranslations } from "@/app/site-render/_site/translations";
import { loadSiteView } from "@/app/site-render/_site/context";
import { proxiedSite } from "@/app/site-render/_site/proxied-site";
import { NotFoundBody } from "@/app/site-render/_site/components/not-found-body";

/**
 * A page of a site found missing while rendering it (the proxy checked before, so only when it
 * went away in between, or the check failed): inside the site's layout, so only its body. Its HTML
 * is filled in by JavaScript (Next.js 16, vercel/next.js#62228); app/not-found.tsx is the usual 404.
 */
export default async function PageNotFound() {
  const { locale, key } = await proxiedSite();
  // The layout's own lookup (memoised per request): this boundary renders with every page.
  const site = locale && key ? await loadSiteView(key, locale).catch(() => null) : null;
  if (site) return <NotFoundBody site={site} />;
  const t = await getTranslations("notFound");
  return (
    <div className="notfound wrap">
      <h1>{t("title")}</h1>
      <p className="muted">{t("text")}</p>
      <p>
        <a className="btn" href={locale && locale !== "pt-BR" ? `/${locale}` : "/"}>
          {t("home")}
        </a>
      </p>
    </div>
  );
}
