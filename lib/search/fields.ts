import type { FilterSchema } from "./filter";
import { columnOf, GEO_FIELD, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, tokensOf, type SearchField } from "../../db/schema/search-fields";

export { columnOf, GEO_FIELD, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, tokensOf, type SearchField };

/** The `filter_by` allow-list: only these names can appear in a filter. */
export const FILTER_SCHEMA: FilterSchema = Object.freeze({
  id: { type: "string", column: "listing_id" },
  ...Object.fromEntries(
    SEARCH_FIELDS.map((f) => [
      f.name,
      f.type === "string" || f.type === "string[]"
        ? { type: f.type, column: columnOf(f.name), tokens: tokensOf(f), derived: true }
        : { type: f.type, column: columnOf(f.name) },
    ]),
  ),
  [GEO_FIELD]: { type: "geopoint", column: LAT_COLUMN, lat: LAT_COLUMN, lng: LNG_COLUMN },
});

export const fieldByName = (name: string): SearchField | undefined => (Object.hasOwn(FIELD_INDEX, name) ? FIELD_INDEX[name] : undefined);
const FIELD_INDEX: Record<string, SearchField> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.name, f]));

export const isSortable = (f: SearchField) => (f.type !== "string" && f.type !== "string[]" ? true : Boolean(f.sort));

/**
 * Full-text fields and the tsvector weight class each is indexed under; `query_by` picks classes,
 * so searching titles does not match words that only appear in descriptions.
 */
export const TEXT_WEIGHTS: Record<string, "A" | "B" | "C" | "D"> = {
  title: "A",
  title_en: "A",
  title_es: "A",
  listingCode: "B",
  location_neighborhood: "B",
  location_city: "B",
  location_state: "B",
  location_street: "B",
  description: "C",
  description_en: "C",
  description_es: "C",
  propertyType: "D",
  typologyName: "D",
  features: "D",
};
