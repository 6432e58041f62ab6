import { obj, str, type Doc } from "./doc-fields";

/**
 * The address at the level the page may show: a share resolve's `property.address` when it has
 * one (street, number, area, postal code), else the document's place fields. A property without
 * an address (hidden by the link's rules) shows none.
 */
export function addressLine(doc: Doc, property?: Doc): string {
  if (property) {
    if (!property.address) return "";
    const a = obj(property.address);
    const street = [str(a.street), str(a.number)].filter(Boolean).join(", ");
    const area = [str(a.neighborhood), [str(a.city), str(a.state)].filter(Boolean).join(" - ")].filter(Boolean).join(", ");
    return [street, area, str(a.postalCode)].filter(Boolean).join(" · ");
  }
  return [str(doc.location_street), str(doc.location_neighborhood), [str(doc.location_city), str(doc.location_state)].filter(Boolean).join(" - ")]
    .filter(Boolean)
    .join(", ");
}

/** Neighbourhood and city: where a listing is, in a card. */
export const placeLine = (doc: Doc): string => [str(doc.location_neighborhood), str(doc.location_city)].filter(Boolean).join(", ");
