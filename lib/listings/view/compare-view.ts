import { formatMoney, formatNumber } from "../../i18n/format";
import type { Locale } from "../../i18n/locales";
import type { Translator } from "../../i18n/translator";
import { placeLine } from "./address-line";
import { num, str, type Doc } from "./doc-fields";
import { fallbackLang, localized } from "./localized-text";
import { coverPhoto } from "./photos";
import { priceText } from "./price-text";
import { typeLabel } from "./type-label";

/** One listing's column of the compare view. */
export type CompareColumn = { id: string; code: string; title: string; titleLang?: "pt-BR"; cover: string | null; doc: Doc };
/** One row: its label and a cell per column ("—" where the listing has no figure). */
export type CompareRow = { key: string; label: string; cells: string[]; best?: number };

/** The price per m² of the private area (else the total), when the price is public. */
export function pricePerSqm(doc: Doc): number | null {
  const price = num(doc.price);
  const area = num(doc.privateArea) || num(doc.totalArea);
  return price !== null && price > 0 && area ? price / area : null;
}

/**
 * The compare view of up to 4 public detail documents side by side: price, price per m², areas,
 * rooms, fees and place, from the allow-listed document only (never a stored row). `best` marks
 * the lowest price per m² when at least two listings have one.
 */
export function compareView(docs: Doc[], locale: Locale, t: Translator, tenantTypes?: unknown): { columns: CompareColumn[]; rows: CompareRow[] } {
  const none = t("favourites.none");
  const money = (v: number | null) => (v ? formatMoney(locale, v) : none);
  const area = (v: number | null) => (v ? t("listing.area", { area: formatNumber(locale, v) }) : none);
  const count = (v: number | null) => (v !== null && v > 0 ? formatNumber(locale, v) : none);
  const columns = docs.map((d) => ({
    id: str(d.id),
    code: str(d.listingCode),
    title: localized(d, "title", locale) || typeLabel(d.propertyType, locale, t, tenantTypes),
    titleLang: fallbackLang(d, "title", locale),
    cover: coverPhoto(d),
    doc: d,
  }));
  const perSqm = docs.map(pricePerSqm);
  const priced = perSqm.filter((v): v is number => v !== null);
  const row = (key: string, label: string, cells: string[], best?: number): CompareRow => ({ key, label, cells, ...(best !== undefined ? { best } : {}) });
  return {
    columns,
    rows: [
      row(
        "price",
        t("favourites.price"),
        docs.map((d) => priceText(d, locale, t)),
      ),
      row(
        "pricePerSqm",
        t("favourites.pricePerSqm"),
        perSqm.map((v) => money(v === null ? null : Math.round(v))),
        priced.length > 1 ? perSqm.indexOf(Math.min(...priced)) : undefined,
      ),
      row(
        "privateArea",
        t("listing.privateArea"),
        docs.map((d) => area(num(d.privateArea))),
      ),
      row(
        "totalArea",
        t("listing.totalArea"),
        docs.map((d) => area(num(d.totalArea))),
      ),
      row(
        "bedrooms",
        t("favourites.rooms"),
        docs.map((d) => count(num(d.bedrooms))),
      ),
      row(
        "suites",
        t("favourites.suites"),
        docs.map((d) => count(num(d.suites))),
      ),
      row(
        "bathrooms",
        t("favourites.bathrooms"),
        docs.map((d) => count(num(d.bathrooms))),
      ),
      row(
        "parking",
        t("favourites.parking"),
        docs.map((d) => count(num(d.parkingSpots))),
      ),
      row(
        "condoFee",
        t("listing.condoFee"),
        docs.map((d) => money(num(d.condoFee))),
      ),
      row(
        "propertyTax",
        t("listing.propertyTax"),
        docs.map((d) => money(num(d.propertyTax))),
      ),
      row(
        "type",
        t("favourites.type"),
        docs.map((d) => typeLabel(d.propertyType, locale, t, tenantTypes)),
      ),
      row(
        "place",
        t("favourites.place"),
        docs.map((d) => placeLine(d) || none),
      ),
    ],
  };
}
