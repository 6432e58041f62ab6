/**
 * Private fields are seeded with a marker; every kind of share link is opened with the most
 * permissive sharing rules; no answer may carry a marker or a forbidden key of spec 2 §2.2, at any depth.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as shareRoute from "../../../app/api/sites/share/[token]/route";
import * as estimateRoute from "../../../app/api/sites/share/[token]/price-estimate/route";
import * as hoodsRoute from "../../../app/api/sites/share/[token]/neighborhoods/route";
import * as itinerariesRoute from "../../../app/api/v1/crm/visit-itineraries/route";
import * as shortlistsRoute from "../../../app/api/v1/crm/shortlists/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as pricingToolRoute from "../../../app/api/v1/settings/pricing-tool/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { members } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeMember, makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeShareLink } from "../../helpers/share";

const MARK = "zzsecretzz";
const MARKERS = [MARK, "977771234", "52998224725", "529.982.247-25", "scrypt$"];
const FORBIDDEN_KEYS = [
  "owner_phone",
  "owner_email",
  "owner_whatsapp",
  "contact_phone",
  "contact_email",
  "owner_name",
  "owner_cpf",
  "owner_document",
  "realtor_phone",
  "realtor_email",
  "internal_notes",
  "private_notes",
  "location_number",
  "contacts",
  "ownerPhone",
  "ownerEmail",
  "ownerWhatsapp",
  "ownerName",
  "ownerCpf",
  "internalNotes",
  "privateNotes",
  "email",
  "owner",
  "passwordHash",
  "password",
  "coordinateSeed",
  "complement",
  "createdById",
  "assignedToId",
  "visibility",
  "stage",
  "status",
];

function walk(v: unknown, visit: (s: string, isKey: boolean, path: string) => void, path = "$"): void {
  if (typeof v === "string") visit(v, false, path);
  else if (Array.isArray(v))
    v.forEach((x, i) => {
      walk(x, visit, `${path}[${i}]`);
    });
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      visit(k, true, `${path}.${k}`);
      walk(x, visit, `${path}.${k}`);
    }
}

describe("no share answer carries a private field", () => {
  it("walks the answer of every kind with the most permissive rules", async () => {
    const t = await makeTenant();
    const broker = await makeMember(t, "broker", "broad", { phone: "+5511955554444" });
    await (await getDb())
      .update(members)
      .set({ email: `${MARK}@example.com` })
      .where(eq(members.id, broker.userId));
    await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { sharingConfig: { fieldVisibility: { address: "full", coordinates: "exact", financials: "visible", listingCode: "visible" } } },
    });
    const res = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        property: {
          type: "apartment",
          totalArea: "80.00",
          assignedToId: broker.userId,
          internalNotes: `notes ${MARK}`,
          owner: { name: `Dono ${MARK}`, email: `${MARK}.owner@example.com`, phone: "+55 11 97777-1234", whatsapp: "+55 11 97777-1234", cpf: "529.982.247-25" },
          media: [{ url: "https://img.example.com/a.jpg", isPrimary: true }],
        },
        location: {
          street: "Rua Pública",
          number: "45",
          complement: `apto ${MARK}`,
          neighborhood: "Pinheiros",
          city: "São Paulo",
          state: "SP",
          postalCode: "05422-000",
          latitude: -23.5,
          longitude: -46.6,
        },
        listings: [{ title: "Apartamento", type: "sale", visibility: "private", stage: "active", price: "900000" }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const listingId = res.body.listings[0].id;
    const sl = (await call(shortlistsRoute.POST, "POST", "/x", { key: t.key, body: { name: "S", listingIds: [listingId] } })).body;
    const it = (await call(itinerariesRoute.POST, "POST", "/x", { key: t.key, body: { name: "I", scheduledDate: "2027-01-10", stops: [{ listingId }] } })).body;
    const tokens = [
      (await makeShareLink(t, { entityType: "listing", entityId: listingId, password: "senha-boa" })).token,
      (await makeShareLink(t, { entityType: "seller_report", entityId: listingId })).token,
      (await makeShareLink(t, { entityType: "shortlist", entityId: sl.id })).token,
      (await makeShareLink(t, { entityType: "visit_itinerary", entityId: it.id })).token,
      (await call(pricingToolRoute.GET, "GET", "/x", { key: t.key })).body.token,
    ];
    const kinds = new Set<string>();
    for (const [i, token] of tokens.entries()) {
      const r = await call(shareRoute.POST, "POST", "/x", {
        params: { token },
        body: { password: "senha-boa" },
        headers: { [CLIENT_ADDRESS_HEADER]: `10.14.0.${i}` },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      kinds.add(r.body.entity.type);
      walk(r.body, (s, isKey, path) => {
        if (isKey) expect(FORBIDDEN_KEYS, `${token} ${path}`).not.toContain(s);
        else for (const m of MARKERS) expect(s.includes(m), `${path} carries ${m}`).toBe(false);
      });
      if (r.body.entity.type === "listing") expect(r.body.entity.property.address.number).toBe("45"); // `full` shows the number, by the tenant's choice
    }
    expect([...kinds].sort()).toEqual(["listing", "pricing_tool", "seller_report", "shortlist", "visit_itinerary"]);
    // The pricing helpers' answers: an estimate from public comparables (one shares the marked property's street) and the autocomplete.
    for (let i = 0; i < 3; i++) {
      const c = await call(propertiesRoute.POST, "POST", "/x", {
        key: t.key,
        body: {
          property: {
            type: "apartment",
            totalArea: "80.00",
            bedrooms: 2,
            internalNotes: `notes ${MARK}`,
            owner: { name: `Dono ${MARK}`, phone: "+55 11 97777-1234", cpf: "529.982.247-25" },
          },
          location: {
            street: "Rua Pública",
            number: "45",
            complement: `apto ${MARK}`,
            neighborhood: "Pinheiros",
            city: "São Paulo",
            state: "SP",
            postalCode: "05422-000",
            latitude: -23.5,
            longitude: -46.6,
          },
          listings: [{ title: "Apartamento", type: "sale", visibility: "public", stage: "active", price: String(1_000_000 + i * 50_000) }],
        },
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
    }
    const pricingTokenValue = tokens[4];
    const h = { [CLIENT_ADDRESS_HEADER]: "10.14.1.1" };
    const est = await call(estimateRoute.POST, "POST", "/x", {
      params: { token: pricingTokenValue },
      headers: h,
      body: { city: "sao-paulo-sp", neighborhood: "Pinheiros", propertyType: "apartment", bedrooms: 2, totalArea: 80 },
    });
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    expect(est.body.confidence.comparables).toBe(3);
    const hoods = await call(hoodsRoute.GET, "GET", "/x", { params: { token: pricingTokenValue }, headers: h, query: { city: "sao-paulo-sp", q: "pin" } });
    expect(hoods.body.neighborhoods).toEqual([{ name: "Pinheiros" }]);
    for (const body of [est.body, hoods.body]) {
      walk(body, (s, isKey, path) => {
        if (isKey)
          expect([...FORBIDDEN_KEYS, "id", "listingId", "listingCode", "street", "number", "postalCode", "latitude", "longitude"], path).not.toContain(s);
        else for (const m of [...MARKERS, "Rua Pública", "05422"]) expect(s.includes(m), `${path} carries ${m}`).toBe(false);
      });
    }
  });
});
