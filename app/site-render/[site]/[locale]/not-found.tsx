import { getTranslations } from "next-intl/server";
import { headers } from "next/headers";

/** A page of the site that does not exist (unknown listing, location, entry): within the site's chrome. */
export default async function PageNotFound() {
  const t = await getTranslations("notFound");
  const locale = (await headers()).get("x-next-intl-locale");
  return (
    <div className="notfound wrap">
      <h1>{t("title")}</h1>
      <p className="muted">{t("text")}</p>
      <p>
        <a className="btn" href={locale && locale !== "pt-BR" ? `/${locale}` : "/"}>{t("home")}</a>
      </p>
    </div>
  );
}
