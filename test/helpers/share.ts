import * as propertiesRoute from "../../app/api/v1/real-estate/properties/route";
import * as shareLinksRoute from "../../app/api/v1/share-links/route";
import type { TestTenant } from "./factories";
import { call } from "./http";

let n = 0;

/** One property with one listing through the tenant API; returns the listing's id and code. */
export async function makeListing(
  t: TestTenant,
  listing: Record<string, unknown> = {},
  property: Record<string, unknown> = {},
  location: Record<string, unknown> = {},
): Promise<{ id: string; code: string; propertyId: string }> {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: {
        title: `Apartamento ${++n}`,
        type: "apartment",
        bedrooms: 3,
        bathrooms: 2,
        totalArea: "120.00",
        condominiumFee: "850.00",
        propertyTax: "210.00",
        ...property,
      },
      location: {
        street: "Rua Harmonia",
        number: "123",
        neighborhood: "Vila Madalena",
        city: "São Paulo",
        state: "SP",
        postalCode: "05435-000",
        latitude: -23.5558,
        longitude: -46.6896,
        ...location,
      },
      listings: [{ title: `Apartamento com varanda ${n}`, type: "sale", price: "980000.00", visibility: "public", stage: "active", ...listing }],
    },
  });
  if (res.status !== 201) throw new Error(`makeListing: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.listings[0].id, code: res.body.listings[0].listingCode, propertyId: res.body.property?.id ?? res.body.id };
}

export async function makeShareLink(t: TestTenant, body: Record<string, unknown>): Promise<any> {
  const res = await call(shareLinksRoute.POST, "POST", "/x", { key: t.key, body });
  if (res.status !== 201) throw new Error(`makeShareLink: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
