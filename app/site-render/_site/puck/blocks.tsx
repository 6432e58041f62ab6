import { getTranslations } from "@/app/site-render/_site/translations";
import type { SiteView } from "../context";
import { href } from "../links";
import { searchSite } from "@/lib/sites/public-search";
import { publicEntries } from "@/lib/cms/public-cms";
import { logger } from "@/lib/log/logger";
import { isSitePath } from "@/lib/util/site-path";
import { ListingGrid } from "../components/listing-grid";
import { SearchBar } from "../components/search-bar";
import { LeadForm } from "../components/lead-form";
import { Paragraphs, RichText } from "@/app/_ui/rich-text";
import { formatDate } from "@/lib/i18n/format";

/**
 * The blocks a site's pages are built from (the components of the Puck config). Props come from
 * `puck_data` as the tenant saved them: every block reads them defensively (wrong types are
 * ignored), and a block whose data cannot be read renders nothing and is logged, never a 500.
 */
export type BlockCtx = { site: SiteView; path: string; query: Record<string, string | string[] | undefined> };

type P = Record<string, unknown>;
const s = (v: unknown, max = 2000) => (typeof v === "string" ? v.slice(0, max) : "");
const n = (v: unknown, min: number, max: number, dflt: number) => {
  const x = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isInteger(x) && x >= min && x <= max ? x : dflt;
};
const quote = (v: string) => `\`${v.replace(/`/g, "")}\``;

export async function guarded(name: string, site: SiteView, render: () => Promise<React.ReactNode>): Promise<React.ReactNode> {
  try {
    return await render();
  } catch (err) {
    logger().warn({ err, site: site.row.id, block: name }, "site block failed to render; left out");
    return null;
  }
}

export async function HeroBlock({ p, ctx, first }: { p: P; ctx: BlockCtx; first: boolean }) {
  const t = await getTranslations("search");
  const title = s(p.title, 200) || t("title");
  const Tag = first ? "h1" : "h2";
  return (
    <section className="hero">
      <div className="wrap">
        <Tag>{title}</Tag>
        {s(p.subtitle) && <p>{s(p.subtitle, 400)}</p>}
        {p.showSearch !== false && <SearchBar site={ctx.site} />}
      </div>
    </section>
  );
}

/** Listings from the site's catalogue (its criteria always apply), narrowed by the block's props. */
export async function ListingGridBlock({ p, ctx, featured }: { p: P; ctx: BlockCtx; featured: boolean }) {
  const th = await getTranslations("home");
  const limit = n(p.limit, 1, 24, featured ? 3 : 6);
  const f: string[] = [];
  if (p.businessType === "sale" || p.businessType === "rental") f.push(`listingType:=${p.businessType}`);
  if (s(p.propertyType, 60)) f.push(`propertyType:=${quote(s(p.propertyType, 60))}`);
  if (s(p.city, 120)) f.push(`location_city:=${quote(s(p.city, 120))}`);
  const codes = s(p.listingCodes, 1000)
    .split(",")
    .map((c) => c.trim())
    .filter((c) => /^[A-Za-z0-9._-]{1,40}$/.test(c))
    .slice(0, 24);
  if (codes.length) f.push(`listingCode:=[${codes.map(quote).join(",")}]`);
  if (featured && !codes.length) f.push("hasPhotos:=true");
  // Featured listings default to the most valuable ones; grids to the newest.
  const sort = p.sort === "price_asc" ? "price:asc" : p.sort === "price_desc" || (featured && !p.sort) ? "price:desc" : "publishedAt:desc";
  const res = await searchSite(ctx.site.db, ctx.site.row, { q: "*", filter_by: f.join(" && ") || undefined, sort_by: sort, per_page: limit, page: 1 });
  if (!res.hits.length) return null;
  const title = s(p.title, 200) || (featured ? th("featured") : th("latest"));
  return (
    <section className={`section${featured ? " soft" : ""}`}>
      <div className="wrap">
        <div className="section-head">
          <h2>{title}</h2>
          <a href={href(ctx.site, "/imoveis")}>{th("seeAll")}</a>
        </div>
        {/* A grid's first photo is often the largest thing on a phone's first screen (the LCP): never lazy. */}
        <ListingGrid site={ctx.site} docs={res.hits.map((h) => h.document)} eagerFirst={1} />
      </div>
    </section>
  );
}

export function TextBlock({ p }: { p: P }) {
  return (
    <section className="section">
      <div className="wrap rich">
        {s(p.title, 200) && <h2>{s(p.title, 200)}</h2>}
        <Paragraphs text={s(p.text, 20_000)} />
      </div>
    </section>
  );
}

export function RichTextBlock({ p }: { p: P }) {
  return (
    <section className="section">
      <div className="wrap">
        <RichText html={s(p.content ?? p.html ?? p.text, 100_000)} />
      </div>
    </section>
  );
}

export function ImageBlock({ p }: { p: P }) {
  const src = s(p.src ?? p.url, 2000);
  if (!/^https?:\/\//i.test(src) && !isSitePath(src)) return null;
  const w = n(p.width, 1, 4000, 1200);
  const h = n(p.height, 1, 4000, 800);
  return (
    <section className="section">
      <figure className="wrap" style={{ margin: "0 auto" }}>
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={src} alt={s(p.alt, 300)} width={w} height={h} loading="lazy" decoding="async" style={{ borderRadius: 12 }} />
        {s(p.caption, 300) && <figcaption className="muted">{s(p.caption, 300)}</figcaption>}
      </figure>
    </section>
  );
}

export async function CmsListBlock({ p, ctx }: { p: P; ctx: BlockCtx }) {
  const t = await getTranslations("cms");
  const slug = s(p.collection, 120);
  if (!slug) return null;
  const limit = n(p.limit, 1, 24, 3);
  const { entries } = await publicEntries(ctx.site.db, ctx.site.row, slug, { limit, offset: 0 });
  if (!entries.length) return null;
  return (
    <section className="section">
      <div className="wrap">
        {s(p.title, 200) && <h2>{s(p.title, 200)}</h2>}
        <ul className="grid">
          {entries.map((e) => {
            const f = e.fields as Record<string, unknown>;
            const title = s(f.title, 200) || e.seo?.title || e.slug;
            const excerpt = s(f.excerpt ?? f.summary, 300) || e.seo?.description || "";
            return (
              <li key={e.id}>
                <article className="card">
                  <div className="card-body">
                    <h3 className="card-title">
                      <a href={href(ctx.site, `/${slug}/${e.slug}`)}>{title}</a>
                    </h3>
                    {e.publishedAt && <p className="card-place">{t("published", { date: formatDate(ctx.site.locale, e.publishedAt) })}</p>}
                    {excerpt && <p style={{ margin: 0 }}>{excerpt}</p>}
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

export function CtaBlock({ p, ctx }: { p: P; ctx: BlockCtx }) {
  const to = s(p.buttonHref, 2000) || "/imoveis";
  const link = isSitePath(to) ? href(ctx.site, to) : /^https?:\/\//i.test(to) ? to : null;
  return (
    <section className="section">
      <div className="wrap">
        <div className="cta">
          <div>
            <h2>{s(p.title, 200)}</h2>
            {s(p.text) && <p>{s(p.text, 600)}</p>}
          </div>
          {link && s(p.buttonLabel, 80) && (
            <a className="btn" href={link}>
              {s(p.buttonLabel, 80)}
            </a>
          )}
        </div>
      </div>
    </section>
  );
}

export async function ContactBlock({ p, ctx }: { p: P; ctx: BlockCtx }) {
  const outcome = typeof ctx.query.lead === "string" ? ctx.query.lead : undefined;
  return (
    <section className="section">
      <div className="wrap" style={{ maxWidth: 640 }}>
        <LeadForm site={ctx.site} path={ctx.path} outcome={outcome} title={s(p.title, 200) || undefined} />
      </div>
    </section>
  );
}
