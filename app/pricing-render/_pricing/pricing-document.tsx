import type { CSSProperties, ReactNode } from "react";
import { BrandBand } from "@/app/_ui/brand-band";
import { renderDocument } from "@/app/_ui/static-markup";
import { brandPalette, brandVariables } from "@/lib/brand/brand-colors";
import { localePrefix, type Locale } from "@/lib/i18n/locales";
import type { LooseT, Translator } from "@/lib/i18n/translator";
import { PRICING_CSS } from "./pricing-css";

/** What every pricing page knows: the visitor's language, the tenant's branding, where the tool lives. */
export type Frame = {
  /** The tool's messages (`pricing.*` in messages/), by key within them. */
  t: LooseT;
  /** Every message (property types, money words) by its full key. */
  tr: Translator;
  locale: Locale;
  languages: Locale[];
  token: string;
  /** `/c/{token}` with the locale prefix: the tool's own address on this host. */
  base: string;
  brand: { name: string; logo: string | null; color: string };
  /** Whether the page loads the small enhancement script (neighbourhood suggestions as one types). */
  script?: boolean;
};

export const basePath = (locale: Locale, token: string) => `${localePrefix(locale)}/c/${token}`;

/**
 * A pricing page: the brand band (with the tool in the tenant's other languages, keeping `query`),
 * the step, the footer, and on the neighbourhood step the one small script that refreshes the
 * suggestions (the page works without it). Rendered to HTML on the server; no client runtime.
 */
export function pricingPage(f: Frame, title: string, body: ReactNode, query = ""): Promise<string> {
  const palette = brandPalette(f.brand.color);
  const langs = { current: f.locale, available: f.languages, hrefFor: (l: Locale) => `${basePath(l, f.token)}${query}` };
  return renderDocument(
    <html lang={f.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${f.brand.name}`}</title>
        <meta name="description" content={f.t("intro")} />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="same-origin" />
        <meta name="theme-color" content={palette.color} />
        <link rel="icon" href="data:," />
        <style dangerouslySetInnerHTML={{ __html: PRICING_CSS }} />
      </head>
      <body style={brandVariables(palette) as CSSProperties}>
        <a className="skip" href="#main">
          {f.t("title")}
        </a>
        {f.brand.name && <BrandBand brand={f.brand} label={f.t("language")} langs={langs} />}
        <main id="main" className="wrap">
          {body}
        </main>
        {f.brand.name && <footer>{f.t("by", { name: f.brand.name })}</footer>}
        {f.script && <script src="/pricing-tool.js" defer />}
      </body>
    </html>,
  );
}
