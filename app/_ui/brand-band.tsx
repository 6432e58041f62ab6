import { isLocale, type Locale } from "@/lib/i18n/locales";
import { safeImageUrl } from "@/lib/util/safe-url";
import { LanguageLinks } from "./language-links";

export type Languages = { current: Locale; available: readonly string[]; hrefFor: (locale: Locale) => string };

/**
 * The tenant's band at the top of a share page and of the pricing tool: its logo (or its initial),
 * its name, and the page in the tenant's other languages. The colours come from the brand's
 * custom properties (`--brand`, `--on-brand`).
 */
export function BrandBand({ brand, label, langs }: { brand: { name: string; logo: string | null }; label: string; langs?: Languages }) {
  const logo = safeImageUrl(brand.logo);
  const links = langs ? langs.available.filter(isLocale).map((l) => ({ locale: l, href: langs.hrefFor(l) })) : [];
  return (
    <header className="brand">
      <div className="in">
        {logo ? (
          // Low priority, so React adds no preload for it: the page's photo comes first.
          // eslint-disable-next-line @next/next/no-img-element
          <img className="logo" src={logo} alt="" width={40} height={40} decoding="async" fetchPriority="low" />
        ) : (
          <span className="mark" aria-hidden="true">
            {brand.name.trim().charAt(0).toUpperCase()}
          </span>
        )}
        <span className="brand-name">{brand.name}</span>
        {langs && <LanguageLinks current={langs.current} label={label} links={links} />}
      </div>
    </header>
  );
}
