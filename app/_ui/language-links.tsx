import { LOCALE_NAMES, LOCALE_SHORT, type Locale } from "@/lib/i18n/locales";

/**
 * The other languages of a page (sites, share pages, the pricing tool): `PT · EN · ES`, each named
 * in its own language for screen readers, the current one marked. Nothing when there is one language.
 */
export function LanguageLinks({ current, links, label }: { current: Locale; links: { locale: Locale; href: string }[]; label: string }) {
  if (links.length < 2) return null;
  return (
    <nav className="langs" aria-label={label}>
      {links.map(({ locale, href }) => (
        <a key={locale} href={href} hrefLang={locale} lang={locale} aria-current={locale === current ? "true" : undefined} title={LOCALE_NAMES[locale]}>
          <span aria-hidden="true">{LOCALE_SHORT[locale]}</span>
          <span className="sr-only">{LOCALE_NAMES[locale]}</span>
        </a>
      ))}
    </nav>
  );
}
