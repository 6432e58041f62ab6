import type { FeedItem } from "./listings-feed";

/**
 * The listings feed as Grupo ZAP's VRSync XML (the format ZAP Imóveis and Viva Real import). Built
 * from the same public documents as the JSON feed, so it carries nothing the JSON would not; the
 * street number is not public, so addresses are shown at neighborhood level.
 */
const esc = (v: unknown) =>
  String(v ?? "")
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
const tag = (name: string, value: unknown, attrs = "") =>
  value === null || value === undefined || value === "" ? "" : `<${name}${attrs}>${esc(value)}</${name}>`;

/** Our property types to VRSync's; anything else is listed as residential home. */
const PROPERTY_TYPES: Record<string, string> = {
  apartment: "Residential / Apartment",
  house: "Residential / Home",
  penthouse: "Residential / Penthouse",
  studio: "Residential / Kitnet",
  land: "Residential / Land Lot",
  commercial: "Commercial / Building",
  office: "Commercial / Office",
  store: "Commercial / Business",
  farm: "Residential / Farm Ranch",
};
const PUBLICATION: Record<string, string> = { standard: "STANDARD", featured: "PREMIUM", super_featured: "SUPER_PREMIUM" };

export function toVrsync(items: FeedItem[], provider: { name: string }): string {
  const listings = items.map((d) => {
    const rent = d.listingType === "rental";
    const price = typeof d.price === "number" ? d.price : null;
    const media = ((d.imageUrls as string[]) ?? [])
      .map((u, i) => `<Item medium="image" caption="${esc(d.title)}"${i === 0 ? ' primary="true"' : ""}>${esc(u)}</Item>`)
      .join("");
    return [
      "<Listing>",
      tag("ListingID", d.listingCode ?? d.id),
      tag("Title", d.title),
      tag("TransactionType", rent ? "For Rent" : "For Sale"),
      tag("PublicationType", PUBLICATION[d.slot] ?? "STANDARD"),
      media ? `<Media>${media}</Media>` : "",
      "<Details>",
      tag("PropertyType", PROPERTY_TYPES[String(d.propertyType)] ?? "Residential / Home"),
      tag("Description", d.description),
      price !== null ? tag(rent ? "RentalPrice" : "ListPrice", Math.round(price), ' currency="BRL"') : "",
      tag("PropertyAdministrationFee", d.condoFee, ' currency="BRL"'),
      tag("YearlyTax", d.propertyTax, ' currency="BRL"'),
      tag("LivingArea", d.privateArea ?? d.totalArea, ' unit="square metres"'),
      tag("LotArea", d.totalArea, ' unit="square metres"'),
      tag("Bedrooms", d.bedrooms),
      tag("Bathrooms", d.bathrooms),
      tag("Suites", d.suites),
      tag("Garage", d.parkingSpots, ' type="Parking Space"'),
      "</Details>",
      `<Location displayAddress="Neighborhood">`,
      tag("Country", "Brasil", ' abbreviation="BR"'),
      tag("State", d.location_state, ` abbreviation="${esc(d.location_state)}"`),
      tag("City", d.location_city),
      tag("Neighborhood", d.location_neighborhood),
      tag("Latitude", d.location_latitude),
      tag("Longitude", d.location_longitude),
      "</Location>",
      "</Listing>",
    ].join("");
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListingDataFeed xmlns="http://www.vivareal.com/schemas/1.0/VRSync" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    `<Header>${tag("Provider", provider.name)}${tag("PublishDate", new Date().toISOString())}</Header>` +
    `<Listings>${listings.join("")}</Listings></ListingDataFeed>\n`
  );
}
