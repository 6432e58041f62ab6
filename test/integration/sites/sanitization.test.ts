/**
 * Every private field is seeded with a marker, then every public sites endpoint is called as a
 * visitor would; no answer may contain a marker or a forbidden key, at any depth.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as buildingRoute from "../../../app/api/sites/[siteId]/buildings/[buildingId]/route";
import * as brokersRoute from "../../../app/api/sites/[siteId]/brokers/public/route";
import * as brokerRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/broker/route";
import * as similarRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/similar/route";
import * as validateRoute from "../../../app/api/sites/[siteId]/locations/validate/route";
import * as locationsRoute from "../../../app/api/sites/[siteId]/locations/route";
import * as propertyRoute from "../../../app/api/sites/[siteId]/property/[id]/route";
import * as publicConfigRoute from "../../../app/api/sites/[siteId]/public-config/route";
import * as searchRoute from "../../../app/api/sites/[siteId]/search/route";
import * as typologyListingsRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/listings/route";
import * as typologyRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/route";
import * as unitsRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/units/route";
import * as typologiesRoute from "../../../app/api/sites/[siteId]/typologies/route";
import * as resolveRoute from "../../../app/api/sites/resolve/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { buildings, members, typologies, units } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const MARK = "zzsecretzz";
/** Markers that cannot carry the word (e-mail local parts, phone digits, CPF digits). */
const MARKERS = [MARK, "977771234", "96666", "52998224725", "529.982.247-25"];
/** Spec 2 §2.2's removed fields, in the index's snake case and the API's camel case. */
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
  "reservation",
  "tenant_id",
];

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.6.${Math.floor(++ip / 250)}.${ip % 250}` });

let t: TestTenant;
let site: { id: string; domain: string };
const id: Record<string, string> = {};

beforeAll(async () => {
  t = await makeTenant();
  const broker = await makeMember(t, "broker", "broad", { phone: "+5511955554444" });
  const db = await getDb();
  await db
    .update(members)
    .set({ email: `${MARK}@example.com` })
    .where(eq(members.id, broker.userId));
  const [b] = await db
    .insert(buildings)
    .values({ tenantId: t.tenantId, name: "Edifício", street: `Rua ${MARK}`, number: "96666", postalCode: "01310-100" })
    .returning();
  const [ty] = await db.insert(typologies).values({ tenantId: t.tenantId, buildingId: b.id, name: "Tipo" }).returning();
  await db.insert(units).values({ tenantId: t.tenantId, typologyId: ty.id, unitNumber: "1", reservation: { buyer: MARK, phone: "+5511977771234" } });
  Object.assign(id, { building: b.id, typology: ty.id });
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: {
        type: "apartment",
        assignedToId: broker.userId,
        internalNotes: `notes ${MARK}`,
        owner: { name: `Dono ${MARK}`, email: `${MARK}.owner@example.com`, phone: "+55 11 97777-1234", whatsapp: "+55 11 97777-1234", cpf: "529.982.247-25" },
        media: [{ url: "https://img.example.com/a.jpg", isPrimary: true }],
      },
      location: {
        street: "Rua Pública",
        number: "96666",
        complement: `apto ${MARK}`,
        neighborhood: "Pinheiros",
        city: "São Paulo",
        state: "SP",
        postalCode: "05422-000",
        latitude: -23.5,
        longitude: -46.6,
      },
      listings: [
        { title: "Apartamento público", type: "sale", visibility: "public", stage: "active", price: "900000", isPrimaryMarket: "true", typologyId: ty.id },
        { title: "Outro apartamento", type: "sale", visibility: "public", stage: "active", price: "950000" },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  id.listing = res.body.listings[0].id;
  id.code = res.body.listings[0].listingCode;
  id.broker = broker.userId;
  site = await makeSite(t);
});

/** Every string and key of a JSON value, at any depth. */
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

describe("no public answer carries a private field", () => {
  it("walks every sites endpoint's answer", async () => {
    const p = (extra: Record<string, string> = {}) => ({ siteId: site.id, ...extra });
    const answers: [string, { status: number; body: unknown }][] = [];
    const get = async (name: string, route: { GET: any }, params: Record<string, string>, query: Record<string, string> = {}) =>
      answers.push([name, await call(route.GET, "GET", "/x", { params, query, headers: headers() })]);
    await get("resolve", resolveRoute, {}, { domain: site.domain });
    await get("public-config", publicConfigRoute, p());
    for (const body of [
      { q: "*", facet_by: "location_city,propertyType", per_page: 250 },
      { q: MARK, query_by: "title,description,location_street,location_neighborhood" },
    ]) {
      answers.push([`search ${body.q}`, await call(searchRoute.POST, "POST", "/x", { params: p(), body, headers: headers() })]);
    }
    for (const ref of [id.listing, id.code]) await get(`property ${ref}`, propertyRoute, p({ id: ref }));
    await get("broker", brokerRoute, p({ listingId: id.listing }));
    await get("brokers", brokersRoute, p(), { ids: id.broker });
    await get("similar", similarRoute, p({ listingId: id.listing }));
    await get("typologies", typologiesRoute, p(), { buildingId: id.building });
    await get("typology", typologyRoute, p({ typologyId: id.typology }), { includeUnits: "true" });
    await get("units", unitsRoute, p({ typologyId: id.typology }));
    await get("typology listings", typologyListingsRoute, p({ typologyId: id.typology }));
    await get("building", buildingRoute, p({ buildingId: id.building }));
    await get("locations", locationsRoute, p());
    await get("validate", validateRoute, p(), { path: "sp/sao-paulo/pinheiros/rua-publica" });

    for (const [name, res] of answers) {
      expect(res.status, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      walk(res.body, (s, isKey, path) => {
        const low = s.toLowerCase();
        for (const m of MARKERS) expect(low.includes(m), `${name} ${path}`).toBe(false);
        if (isKey) expect(FORBIDDEN_KEYS.includes(s), `${name} ${path}`).toBe(false);
      });
    }
    // The walk saw the data it should: the listing, its broker and its development.
    const detail = answers.find(([n]) => n === `property ${id.listing}`)![1].body as Record<string, unknown>;
    expect(detail).toMatchObject({ id: id.listing, location_street: "Rua Pública", location_latitude: -23.5 });
    expect(answers.find(([n]) => n === "broker")![1].body).toMatchObject({ id: id.broker, phone: "+5511955554444" });
    expect(JSON.stringify(answers.find(([n]) => n === "typology")![1].body)).toContain('"unitNumber":"1"');
  });
});
