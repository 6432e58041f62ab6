import { formatMoney } from "../../i18n/format";
import type { Locale } from "../../i18n/locales";
import type { Translator } from "../../i18n/translator";
import { num, type Doc } from "./doc-fields";

/** The price line of a listing: its price, per month for rentals, or "Consulte" when it is not shown. */
export function priceText(doc: Doc, locale: Locale, t: Translator): string {
  const price = num(doc.price);
  if (price === null) return t("listing.priceOnRequest");
  const money = formatMoney(locale, price);
  return doc.listingType === "rental" ? t("listing.perMonth", { price: money }) : money;
}

/** "Venda" or "Aluguel". */
export const businessText = (doc: Doc, t: Translator): string => (doc.listingType === "rental" ? t("business.rental") : t("business.sale"));
