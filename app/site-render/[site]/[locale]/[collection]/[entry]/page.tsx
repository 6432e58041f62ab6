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
import { JsonLd } from "@/app/site-render/_site/components/json-ld";
import { isSitePath } from "@/lib/util/site-path";
import { Paragraphs, RichText } from "@/app/_ui/rich-text";
import { publicCollection, publicEntry } from "@/lib/cms/public-cms";

type Props = {
  params: Promise<{ site: string; locale: string; collection: string; entry: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const load = cache(async (site: SiteView, collection: string, entry: string) => {
  const c = await orNull(publicCollection(site.db, site.row, collection));
  if (!c) return null;
  const e = await orNull(publicEntry(site.db, site.row, collection, entry));
  return e ? { collection: c, entry: e.entry } : null;
});

const titleOf = (fields: Record<string, unknown>, fallback: string) => (typeof fields.title === "string" && fields.title ? fields.title : fallback);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale, collection, entry } = await params;
  const site = await loadSiteView(s, locale);
  const r = await load(site, collection, entry);
  if (!r) return {};
  const f = r.entry.fields as Record<string, unknown>;
  const title = r.entry.seo?.title || `${titleOf(f, r.entry.slug)} | ${site.name}`;
  const description = r.entry.seo?.description || (typeof f.excerpt === "string" ? f.excerpt : "") || titleOf(f, r.entry.slug);
  return pageMetadata(site, { title, description, path: `/${collection}/${entry}`, type: "article" });
}

/**
 * A CMS entry, shown with its collection's fields in order (text as paragraphs, rich text through
 * the allow-list). When the collection's `templatePageId` names an extra Puck page of the site,
 * that page's blocks follow the entry (the template's shared content: contact form, listings...).
 */
export default async function EntryPage({ params, searchParams }: Props) {
  const { site: s, locale, collection, entry } = await params;
  const site = await loadSiteView(s, locale);
  const r = await load(site, collection, entry);
  if (!r) notFound();
  const t = await getTranslations("cms");
  const f = r.entry.fields as Record<string, unknown>;
  const title = titleOf(f, r.entry.slug);
  const template = r.collection.templatePageId ? extraPages(site).find((p) => p.id === r.collection.templatePageId) : undefined;
  const path = `/${collection}/${entry}`;
  return (
    <>
      <div className="wrap">
        <Breadcrumb
          site={site}
          crumbs={[
            { name: r.collection.name, path: `/${collection}` },
            { name: title, path },
          ]}
        />
        <article className="section rich">
          <h1>{title}</h1>
          {r.entry.publishedAt && <p className="muted">{t("published", { date: formatDate(site.locale, r.entry.publishedAt) })}</p>}
          {r.collection.fields
            .filter((d) => d.id !== "title" && f[d.id] !== undefined && f[d.id] !== null && f[d.id] !== "")
            .map((d) => {
              const v = f[d.id];
              if (d.type === "richText" && typeof v === "string") return <RichText key={d.id} html={v} className="" />;
              if (d.type === "image" && typeof v === "string" && (/^https?:\/\//.test(v) || isSitePath(v))) {
                // eslint-disable-next-line @next/next/no-img-element
                return <img key={d.id} src={v} alt="" width={1200} height={800} loading="lazy" />;
              }
              if (typeof v === "string" || typeof v === "number")
                return (
                  <div key={d.id} className={d.id === "excerpt" ? "muted" : undefined}>
                    <Paragraphs text={String(v)} />
                  </div>
                );
              return null;
            })}
          <p>
            <a href={href(site, `/${collection}`)}>{t("back")}</a>
          </p>
        </article>
      </div>
      {template && <PuckPage site={site} data={template.data} page={template.id} path={path} query={await searchParams} />}
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "BlogPosting",
          headline: title,
          datePublished: r.entry.publishedAt,
          dateModified: r.entry.updatedAt,
          publisher: { "@type": "Organization", name: site.name },
        }}
      />
    </>
  );
}
