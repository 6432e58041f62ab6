import { getTranslations } from "@/app/site-render/_site/translations";
import "@/app/site-render/_site/site.css";

/** No published site answers at this host (or preview id): a plain 404 page. */
export default async function SiteNotFound() {
  const t = await getTranslations("notFound");
  return (
    <div className="site">
      <main id="main" className="notfound wrap">
        <h1>{t("siteTitle")}</h1>
        <p className="muted">{t("siteText")}</p>
      </main>
    </div>
  );
}
