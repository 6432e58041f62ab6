import { formatMoney, formatNumber } from "../../i18n/format";
import type { Locale } from "../../i18n/locales";
import type { Translator } from "../../i18n/translator";
import { num, type Doc } from "./doc-fields";

export type KeyFact = { value: string; label: string };

/**
 * A listing's key figures: areas, rooms, and the condo fee and property tax when the page may show
 * them (a share link's rules drop both keys otherwise). `property` is a share resolve's property,
 * read where the document lacks a figure.
 */
export function keyFacts(doc: Doc, locale: Locale, t: Translator, property: Doc = {}): KeyFact[] {
  const p = property;
  const facts: KeyFact[] = [];
  const area = (v: number | null) => (v !== null && v > 0 ? t("listing.area", { area: formatNumber(locale, v) }) : null);
  const total = area(num(doc.totalArea) ?? num(p.totalArea));
  const priv = area(num(doc.privateArea) ?? num(p.privateArea) ?? num(p.usableArea));
  if (total) facts.push({ value: total, label: t("listing.totalArea") });
  if (priv && priv !== total) facts.push({ value: priv, label: t("listing.privateArea") });
  const rooms = [
    ["bedrooms", num(doc.bedrooms) ?? num(p.bedrooms)],
    ["suites", num(doc.suites) ?? num(p.suites)],
    ["bathrooms", num(doc.bathrooms) ?? num(p.bathrooms)],
    ["parking", num(doc.parkingSpots) ?? num(p.parkingSpaces)],
  ] as const;
  for (const [key, v] of rooms) if (v !== null && v > 0) facts.push({ value: t(`listing.${key}`, { count: v }), label: "" });
  const condo = num(doc.condoFee) ?? num(p.condoFee);
  const tax = num(doc.propertyTax) ?? num(p.propertyTax);
  if (condo) facts.push({ value: formatMoney(locale, condo), label: t("listing.condoFee") });
  if (tax) facts.push({ value: formatMoney(locale, tax), label: t("listing.propertyTax") });
  return facts;
}

/** The few figures of a card: area, bedrooms, bathrooms, parking. */
export function cardFacts(doc: Doc, locale: Locale, t: Translator): string[] {
  const area = num(doc.totalArea);
  const out = area !== null && area > 0 ? [t("listing.area", { area: formatNumber(locale, area) })] : [];
  for (const [key, field] of [
    ["bedrooms", "bedrooms"],
    ["bathrooms", "bathrooms"],
    ["parking", "parkingSpots"],
  ] as const) {
    const v = num(doc[field]);
    if (v !== null && v > 0) out.push(t(`listing.${key}`, { count: v }));
  }
  return out;
}
