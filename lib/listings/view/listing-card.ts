import type { Locale } from "../../i18n/locales";
import type { Translator } from "../../i18n/translator";
import { placeLine } from "./address-line";
import type { Doc } from "./doc-fields";
import { cardFacts } from "./key-facts";
import { fallbackLang, localized } from "./localized-text";
import { coverPhoto } from "./photos";
import { businessText, priceText } from "./price-text";
import { typeLabel } from "./type-label";

/** What a listing card shows, on a site's grid and in a shared shortlist or itinerary alike. */
export type ListingCardView = { title: string; titleLang?: "pt-BR"; place: string; price: string; business: string; cover: string | null; facts: string[] };

/** A card of a listing document; a blank title reads as the property's type. */
export function listingCardView(doc: Doc, locale: Locale, t: Translator, tenantTypes?: unknown): ListingCardView {
  return {
    title: localized(doc, "title", locale) || typeLabel(doc.propertyType, locale, t, tenantTypes),
    titleLang: fallbackLang(doc, "title", locale),
    place: placeLine(doc),
    price: priceText(doc, locale, t),
    business: businessText(doc, t),
    cover: coverPhoto(doc),
    facts: cardFacts(doc, locale, t),
  };
}
