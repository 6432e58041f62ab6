import { getTranslations } from "@/app/site-render/_site/translations";
import type { SiteView } from "../context";
import { href } from "../links";
import { JsonLd } from "./json-ld";

export type Crumb = { name: string; path: string };

/** Breadcrumb navigation with its BreadcrumbList JSON-LD; the last crumb is the current page. */
export async function Breadcrumb({ site, crumbs }: { site: SiteView; crumbs: Crumb[] }) {
  const t = await getTranslations("nav");
  const all = [{ name: t("home"), path: "/" }, ...crumbs];
  return (
    <nav className="crumbs" aria-label={t("breadcrumb")}>
      <ol>
        {all.map((c, i) => (
          <li key={c.path}>{i === all.length - 1 ? <span aria-current="page">{c.name}</span> : <a href={href(site, c.path)}>{c.name}</a>}</li>
        ))}
      </ol>
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "BreadcrumbList",
          itemListElement: all.map((c, i) => ({ "@type": "ListItem", position: i + 1, name: c.name, item: `${site.origin}${href(site, c.path)}` })),
        }}
      />
    </nav>
  );
}
