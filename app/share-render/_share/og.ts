import { createHash } from "node:crypto";
import { brandPalette } from "@/lib/brand/brand-colors";
import { formatDate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Translator } from "@/lib/i18n/translator";
import { placeLine } from "@/lib/listings/view/address-line";
import { obj, str } from "@/lib/listings/view/doc-fields";
import { localized } from "@/lib/listings/view/localized-text";
import { coverPhoto } from "@/lib/listings/view/photos";
import { priceText } from "@/lib/listings/view/price-text";
import { typeLabel } from "@/lib/listings/view/type-label";
import type { SharePage } from "@/lib/share/share-page";
import { safeImageUrl } from "@/lib/util/safe-url";

/**
 * What a link preview (Open Graph tags and the 1200×630 image) says, built from the page's own
 * resolve result and nothing else. A protected, expired or unknown link gives the tenant's
 * branding only (`kind: "branding"`): no title, price, place or photo of the entity.
 */
export type OgContent = {
  kind: "entity" | "branding";
  brandName: string;
  color: string;
  onColor: string;
  logo: string | null;
  /** Headline of the card (the entity's title, or the tenant's name). */
  title: string;
  /** One line under it: price, place or date; "" for branding. */
  subtitle: string;
  /** The meta description. */
  description: string;
  cover: string | null;
};

export function ogContent(page: SharePage, locale: Locale, t: Translator): OgContent {
  if (page.state === "not_found") {
    return {
      kind: "branding",
      brandName: "",
      color: "#3d4a5c",
      onColor: "#ffffff",
      logo: null,
      title: t("share.notFoundTitle"),
      subtitle: "",
      description: t("share.notFoundText"),
      cover: null,
    };
  }
  const branding = page.state === "open" ? page.answer.branding : page.branding;
  const { color, onColor } = brandPalette(branding.primaryColor);
  const base = { brandName: branding.name, color, onColor, logo: safeImageUrl(branding.logo) };
  if (page.state !== "open") {
    return { ...base, kind: "branding", title: branding.name, subtitle: "", description: t("share.ogProtected", { name: branding.name }), cover: null };
  }
  const e = page.answer.entity;
  const name = branding.name;
  switch (e.type) {
    case "listing":
    case "seller_report": {
      const doc = obj(e.listing);
      const title = localized(doc, "title", locale) || typeLabel(doc.propertyType, locale, t, page.answer.tenantConfig?.propertyTypes);
      const place = placeLine(doc);
      const price = priceText(doc, locale, t);
      return {
        ...base,
        kind: "entity",
        title,
        subtitle: [price, place].filter(Boolean).join(" · "),
        description:
          e.type === "seller_report"
            ? t("share.ogReport", { title, name })
            : t("share.ogDescription", { place: [price, place].filter(Boolean).join(" · "), name }),
        cover: coverPhoto(doc, Array.isArray(e.medias) ? e.medias : undefined),
      };
    }
    case "shortlist": {
      const docs = (Array.isArray(e.listings) ? e.listings : []).map(obj);
      const title = str(obj(e.shortlist).name);
      return {
        ...base,
        kind: "entity",
        title,
        subtitle: t("share.shortlistCount", { count: docs.length }),
        description: t("share.ogShortlist", { count: docs.length, name }),
        cover: docs.map((d) => coverPhoto(d)).find(Boolean) ?? null,
      };
    }
    case "visit_itinerary": {
      const it = obj(e.itinerary);
      const date = formatDate(locale, `${str(it.scheduledDate)}T12:00:00Z`);
      const stops = (Array.isArray(e.stops) ? e.stops : []).map(obj);
      return {
        ...base,
        kind: "entity",
        title: str(it.name),
        subtitle: `${date} · ${t("share.stops", { count: stops.length })}`,
        description: t("share.ogItinerary", { date, name }),
        cover: stops.map((s) => coverPhoto(obj(s.listing))).find(Boolean) ?? null,
      };
    }
    default:
      return { ...base, kind: "branding", title: name, subtitle: "", description: t("share.ogProtected", { name }), cover: null };
  }
}

/** The preview cache's key: the link, the language and the inputs' version. */
export const ogCacheKey = (token: string, locale: string, version: string) => `${token}|${locale}|${version}`;

/** Identifies an image's inputs: the preview address carries it, and the image cache is keyed by it. */
export const ogVersion = (c: OgContent) => createHash("sha256").update(JSON.stringify(c)).digest("base64url").slice(0, 12);

/**
 * The characters the bundled font draws (Latin, Latin-1 and common punctuation). Anything else
 * (emoji, other scripts) would make the renderer fetch a font from the internet: dropped instead.
 */
export const drawable = (s: string) =>
  s
    .replace(/[^\u0020-\u007e\u00a0-\u017f\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u00b7\u00b2]/g, "")
    .replace(/\s+/g, " ")
    .trim();
