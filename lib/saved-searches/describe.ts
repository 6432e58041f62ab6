import type { SavedFilters } from "./filters";
import type { AlertT } from "./texts";

const brl = (v: number) => `R$ ${v.toLocaleString("pt-BR")}`;

/** A saved search's filters in words, for messages, pages and the broker's note: "venda, 2+ quartos, São Paulo, até R$ 900.000". */
export function describeFilters(f: SavedFilters, t: AlertT, typeLabel?: (id: string) => string): string {
  const parts: string[] = [];
  if (f.type) parts.push(t(f.type));
  if (f.propertyType) parts.push(typeLabel?.(f.propertyType) ?? f.propertyType);
  if (f.bedrooms) parts.push(t("bedroomsMin", { n: f.bedrooms }));
  const placeName = [f.neighborhood, f.city].filter(Boolean).join(", ");
  if (placeName) parts.push(placeName);
  if (f.minPrice) parts.push(t("priceFrom", { v: brl(f.minPrice) }));
  if (f.maxPrice) parts.push(t("priceTo", { v: brl(f.maxPrice) }));
  if (f.minArea) parts.push(t("areaFrom", { v: f.minArea }));
  if (f.maxArea) parts.push(t("areaTo", { v: f.maxArea }));
  if (f.q) parts.push(`“${f.q}”`);
  return parts.length ? parts.join(", ") : t("any");
}
