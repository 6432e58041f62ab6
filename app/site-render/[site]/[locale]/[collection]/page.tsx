import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "@/app/site-render/_site/translations";
import { cache } from "react";
import { loadSiteView, orNull, type SiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { href } from "@/app/site-render/_site/links";
import { formatDate } from "@/lib/i18n/format";
import { extraPages } from "@/app/site-render/_site/pages";
import { PuckPage } from "@/app/site-render/_site/components/puck-page";
import { Breadcrumb } from "@/app/site-render/_site/components/breadcrumb";
import { publicCollection, publicEntries } from "@/lib/cms/public-cms";

type Props = { params: Promise<{ site: string; locale: string; collection: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A one-segment address: a CMS collection's index, or an extra Puck page of the site. */
const resolve = cache(async (site: SiteView, slug: string) => {
  const collection = await orNull(publicCollection(site.db, site.row, slug));
  if (collection) return { kind: "collection" as const, collection, list: await publicEntries(site.db, site.row, slug, { limit: 100, offset: 0 }) };
  const page = extraPages(site).find((p) => p.path === `/${slug}`);
  return page ? { kind: "page" as const, page } : null;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale, collection } = await params;
  const site = await loadSiteView(s, locale);
  const r = await resolve(site, collection);
  if (!r) return {};
  if (r.kind === "page")
    return pageMetadata(site, { title: `${r.page.title || site.name} | ${site.name}`, description: r.page.description || site.name, path: r.page.path });
  return pageMetadata(site, { title: `${r.collection.name} | ${site.name}`, description: `${r.collection.name} — ${site.name}`, path: `/${collection}` });
}

export default async function CollectionPage({ params, searchParams }: Props) {
  const { site: s, locale, collection } = await params;
  const site = await loadSiteView(s, locale);
  const r = await resolve(site, collection);
  if (!r) notFound();
  if (r.kind === "page") {
    return (
      <>
        <h1 className="sr-only">{r.page.title || site.name}</h1>
        <PuckPage site={site} data={r.page.data} page={r.page.id} path={r.page.path} query={await searchParams} />
      </>
    );
  }
  const t = await getTranslations("cms");
  return (
    <div className="wrap">
      <Breadcrumb site={site} crumbs={[{ name: r.collection.name, path: `/${collection}` }]} />
      <section className="section">
        <h1>{r.collection.name}</h1>
        <ul className="grid">
          {r.list.entries.map((e) => {
            const f = e.fields as Record<string, unknown>;
            const title = (typeof f.title === "string" && f.title) || e.seo?.title || e.slug;
            const excerpt = (typeof f.excerpt === "string" && f.excerpt) || e.seo?.description || "";
            return (
              <li key={e.id}>
                <article className="card">
                  <div className="card-body">
                    <h2 className="card-title">
                      <a href={href(site, `/${collection}/${e.slug}`)}>{title}</a>
                    </h2>
                    {e.publishedAt && <p className="card-place">{t("published", { date: formatDate(site.locale, e.publishedAt) })}</p>}
                    {excerpt && <p style={{ margin: 0 }}>{excerpt}</p>}
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
