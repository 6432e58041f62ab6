import { getTranslations } from "@/app/site-render/_site/translations";
import type { SiteView } from "../context";
import { href, localPath } from "../links";
import { MetaPixelEvent } from "./meta-pixel";
import { VisitorIdField } from "@/app/_ui/favourites/visitor-signals";

/**
 * A plain HTML form posting to the site's own `/lead` (works without JavaScript); the outcome
 * comes back as `?lead=` on the page. `path` is the page's site path, sent as the landing page.
 */
export async function LeadForm({
  site,
  path,
  outcome,
  title,
  listing,
  message,
}: {
  site: SiteView;
  path: string;
  outcome?: string;
  title?: string;
  listing?: { id: string; code: string };
  /** The message's first words, when the page knows them (the compare view names its listings). */
  message?: string;
}) {
  const t = await getTranslations("lead");
  const id = listing ? "lead" : "contact";
  return (
    <section className="box" id="lead" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title ?? (listing ? t("title") : t("contactTitle"))}</h2>
      {outcome === "sent" && (
        <p className="notice" role="status">
          {t("sent")}
        </p>
      )}
      {outcome === "sent" && <MetaPixelEvent site={site} event="lead" />}
      {outcome === "invalid" && (
        <p className="notice err" role="alert">
          {t("error", { reason: t("required") })}
        </p>
      )}
      {outcome === "unavailable" && (
        <p className="notice err" role="alert">
          {t("unavailable")}
        </p>
      )}
      {outcome === "limited" && (
        <p className="notice err" role="alert">
          {t("limited")}
        </p>
      )}
      <form className="form" method="post" action={href(site, "/lead")}>
        <input type="hidden" name="landingPage" value={localPath(site, path)} />
        {listing && <input type="hidden" name="listingId" value={listing.id} />}
        {/* The browser's visitor id (empty without JavaScript): the deal gets the visitor's favourites. */}
        <VisitorIdField />
        <label>
          {t("name")}
          <input name="name" autoComplete="name" required maxLength={200} />
        </label>
        <label>
          {t("email")}
          <input name="email" type="email" autoComplete="email" maxLength={200} />
        </label>
        <label>
          {t("phone")}
          <input name="phone" type="tel" autoComplete="tel" maxLength={40} />
        </label>
        <label>
          {t("message")}
          <textarea name="message" rows={4} maxLength={4000} defaultValue={message ?? (listing ? t("defaultMessage", { code: listing.code }) : "")} />
        </label>
        <div className="hp" aria-hidden="true">
          <label>
            Website
            <input name="website" tabIndex={-1} autoComplete="off" />
          </label>
        </div>
        <button className="btn" type="submit">
          {t("send")}
        </button>
        <p className="muted" style={{ fontSize: ".85rem", margin: 0 }}>
          {t("privacy")}
        </p>
      </form>
    </section>
  );
}
