import type { CSSProperties, ReactNode } from "react";
import { BrandBand, type Languages } from "@/app/_ui/brand-band";
import { brandPalette, brandVariables } from "@/lib/brand/brand-colors";
import type { Locale } from "@/lib/i18n/locales";
import type { Translator } from "@/lib/i18n/translator";
import type { ShareBranding } from "@/lib/share/share-page";
import { SHARE_CSS } from "./share-css";

export type OpenGraph = { title: string; description: string; image: string; url: string; siteName: string };
export type { Languages };

export const NEUTRAL_BRANDING: ShareBranding = { name: "", logo: null, primaryColor: "#3d4a5c" };

function OpenGraphTags({ og, lang }: { og: OpenGraph; lang: string }) {
  return (
    <>
      <meta property="og:type" content="website" />
      <meta property="og:title" content={og.title} />
      <meta property="og:description" content={og.description} />
      <meta property="og:url" content={og.url} />
      <meta property="og:site_name" content={og.siteName} />
      <meta property="og:locale" content={lang.replace("-", "_")} />
      <meta property="og:image" content={og.image} />
      <meta property="og:image:type" content="image/png" />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta property="og:image:alt" content={og.title} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={og.title} />
      <meta name="twitter:description" content={og.description} />
      <meta name="twitter:image" content={og.image} />
    </>
  );
}

/**
 * A whole share page: the brand band, the body, the footer, the phone's contact bar; noindex and
 * no referrer (the token stays private). The first photo of a page (`fetchPriority="high"`) is
 * preloaded by React itself.
 */
export function ShareDocument(p: {
  lang: Locale;
  title: string;
  description: string;
  branding: ShareBranding;
  t: Translator;
  og?: OpenGraph;
  langs?: Languages;
  bar?: ReactNode;
  children: ReactNode;
}) {
  const palette = brandPalette(p.branding.primaryColor);
  return (
    <html lang={p.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{p.title}</title>
        <meta name="description" content={p.description} />
        <meta name="robots" content="noindex,nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="theme-color" content={palette.color} />
        <link rel="icon" href="data:," />
        {p.og && <OpenGraphTags og={p.og} lang={p.lang} />}
        <style dangerouslySetInnerHTML={{ __html: SHARE_CSS }} />
      </head>
      <body style={brandVariables(palette) as CSSProperties}>
        <div className="page">
          {p.branding.name && <BrandBand brand={p.branding} label={p.t("share.languages")} langs={p.langs} />}
          <main>{p.children}</main>
          {p.branding.name && <footer className="foot">{p.t("share.sharedBy", { name: p.branding.name })}</footer>}
        </div>
        {p.bar}
      </body>
    </html>
  );
}

/** The password form: a plain POST to the page's own address, so it works without JavaScript. */
export function PasswordForm({
  t,
  branding,
  action,
  state,
  retryAfterSeconds,
}: {
  t: Translator;
  branding: ShareBranding;
  action: string;
  state: "password_required" | "password_wrong" | "throttled";
  retryAfterSeconds?: number;
}) {
  const err =
    state === "password_wrong"
      ? t("share.passwordWrong")
      : state === "throttled"
        ? t("share.passwordThrottled", { minutes: Math.max(1, Math.ceil((retryAfterSeconds ?? 60) / 60)) })
        : null;
  return (
    <section className="state" aria-labelledby="pw-title">
      <h1 id="pw-title">{t("share.passwordTitle")}</h1>
      <p>{t("share.passwordIntro", { name: branding.name })}</p>
      {err && (
        <p className="notice" role="alert" id="pw-error">
          {err}
        </p>
      )}
      <form method="post" action={action}>
        <label htmlFor="pw">{t("share.password")}</label>
        <input
          id="pw"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? "pw-error" : undefined}
          autoFocus={state !== "password_required"}
        />
        <button className="btn" type="submit">
          {t("share.unlock")}
        </button>
      </form>
    </section>
  );
}

/** A state without content (expired, not found, unavailable): a heading and one sentence. */
export function Message({ title, text }: { title: string; text: string }) {
  return (
    <section className="state">
      <h1>{title}</h1>
      <p>{text}</p>
    </section>
  );
}
