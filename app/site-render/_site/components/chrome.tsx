import { getTranslations } from "@/app/site-render/_site/translations";
import { translatedFields } from "@/lib/sites/view/translated-fields";
import { safeImageUrl, safeUrl } from "@/lib/util/safe-url";
import { isSitePath } from "@/lib/util/site-path";
import type { SiteView } from "../context";
import { href } from "../links";
import { LanguageLinks } from "@/app/_ui/language-links";

type MenuItem = { label: string; href: string };

/** A menu address the site can link to: its own paths (in the page's language), or what the one URL guard lets through. */
export function menuHref(site: SiteView, raw: string): string | null {
  const h = raw.trim();
  return isSitePath(h) ? href(site, h) : safeUrl(h);
}

export async function SiteHeader({ site, path }: { site: SiteView; path: string }) {
  const t = await getTranslations("nav");
  const brand = site.config.configuration.siteConfiguration.brand;
  const configured = (site.config.configuration.siteConfiguration.menu as unknown[]).filter(
    (m): m is MenuItem => typeof m === "object" && m !== null && typeof (m as MenuItem).label === "string" && typeof (m as MenuItem).href === "string",
  );
  const menu = configured.length
    ? configured.map((m) => translatedFields(m, site.locale))
    : [
        { label: t("home"), href: "/" },
        { label: t("listings"), href: "/imoveis" },
      ];
  const current = path.split("?")[0];
  const logo = safeImageUrl(brand.logoUrl);
  return (
    <header className="site-header">
      <div className="wrap">
        <a className="brand" href={href(site, "/")}>
          {logo ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={logo} alt="" width={36} height={36} />
          ) : (
            <span className="brand-mark" aria-hidden="true">
              {site.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <span>{site.name}</span>
        </a>
        <nav className="main-nav" aria-label={t("menu")}>
          <ul>
            {menu.map((m, i) => {
              const to = menuHref(site, m.href);
              if (!to) return null;
              const active = m.href.startsWith("/") && (m.href === "/" ? current === "/" : current.startsWith(m.href));
              return (
                <li key={i}>
                  <a href={to} aria-current={active ? "page" : undefined}>
                    {m.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <LanguageLinks current={site.locale} label={t("language")} links={site.languages.map((l) => ({ locale: l, href: href(site, path, l) }))} />
      </div>
    </header>
  );
}

export async function SiteFooter({ site }: { site: SiteView }) {
  const t = await getTranslations("footer");
  const tn = await getTranslations("nav");
  const f = translatedFields(site.config.configuration.siteConfiguration.footer as Record<string, unknown>, site.locale);
  const s = (k: string) => (typeof f[k] === "string" && (f[k] as string).trim() ? (f[k] as string) : null);
  const links = Array.isArray(f.links)
    ? (f.links as unknown[])
        .filter(
          (m): m is MenuItem => typeof m === "object" && m !== null && typeof (m as MenuItem).label === "string" && typeof (m as MenuItem).href === "string",
        )
        .map((m) => translatedFields(m, site.locale))
    : [];
  return (
    <footer className="site-footer">
      <div className="wrap">
        <div className="cols">
          <div>
            <p>
              <strong>{site.name}</strong>
            </p>
            {s("text") && <p>{s("text")}</p>}
            {s("creci") && <p>CRECI {s("creci")}</p>}
          </div>
          <div>
            <h2 className="h-small" style={{ fontSize: "1rem" }}>
              {t("contact")}
            </h2>
            <ul>
              {s("address") && <li>{s("address")}</li>}
              {s("phone") && (
                <li>
                  <a href={`tel:${s("phone")!.replace(/[^\d+]/g, "")}`}>{s("phone")}</a>
                </li>
              )}
              {s("email") && (
                <li>
                  <a href={`mailto:${s("email")}`}>{s("email")}</a>
                </li>
              )}
            </ul>
          </div>
          <div>
            <h2 style={{ fontSize: "1rem" }}>{t("links")}</h2>
            <ul>
              <li>
                <a href={href(site, "/imoveis")}>{tn("listings")}</a>
              </li>
              {links.map((l, i) => {
                const to = menuHref(site, l.href);
                return to ? (
                  <li key={i}>
                    <a href={to}>{l.label}</a>
                  </li>
                ) : null;
              })}
            </ul>
          </div>
        </div>
        <small>
          © {new Date().getFullYear()} {site.name}. {t("rights")}
        </small>
      </div>
    </footer>
  );
}
