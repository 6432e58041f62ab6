import { getTranslations } from "@/app/site-render/_site/translations";
import type { SiteView } from "../context";
import { href } from "../links";

/** What a site's 404 says, inside its frame: the page is gone, and where to go from here. */
export async function NotFoundBody({ site }: { site: SiteView }) {
  const t = await getTranslations("notFound");
  const th = await getTranslations("home");
  return (
    <div className="notfound wrap">
      <h1>{t("title")}</h1>
      <p className="muted">{t("text")}</p>
      <p className="actions">
        <a className="btn" href={href(site, "/imoveis")}>
          {th("seeAll")}
        </a>
        <a href={href(site, "/")}>{t("home")}</a>
      </p>
    </div>
  );
}
