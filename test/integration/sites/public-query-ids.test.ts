/**
 * Issue 32: `GET /api/sites/{siteId}/typologies?buildingId=not-a-uuid` answered 200 `[]`, as if
 * the building had no typologies. A malformed id in a query is the caller's mistake: 400 naming
 * the parameter, on every `/api/sites` endpoint that takes one. (Ids in paths name a record; one
 * that cannot exist is that record's 404, as the spec's error table and `/api/v1` have it.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as typologiesRoute from "../../../app/api/sites/[siteId]/typologies/route";
import * as typologyRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/route";
import * as buildingRoute from "../../../app/api/sites/[siteId]/buildings/[buildingId]/route";
import * as propertyRoute from "../../../app/api/sites/[siteId]/property/[id]/route";
import * as brokerRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/broker/route";
import * as brokersRoute from "../../../app/api/sites/[siteId]/brokers/public/route";
import * as resolveRoute from "../../../app/api/sites/resolve/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.32.${Math.floor(++ip / 250)}.${ip % 250}` });
const get = <P>(route: { GET: any }, params: P, query: Record<string, string> = {}) => call(route.GET, "GET", "/x", { params, query, headers: headers() });

let t: TestTenant;
let site: { id: string };
let listingId: string;

beforeAll(async () => {
  t = await makeTenant();
  site = await makeSite(t);
  const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({}, [saleListing({ visibility: "public", stage: "active" })]) });
  expect(res.status).toBe(201);
  listingId = res.body.listings[0].id;
});

describe("malformed ids in /api/sites queries", () => {
  it("typologies?buildingId=not-a-uuid is a 400 naming buildingId, not an empty list", async () => {
    const res = await get(typologiesRoute, { siteId: site.id }, { buildingId: "not-a-uuid" });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_parameter", message: "buildingId: 'not-a-uuid' is not a UUID" });
    const unknown = await get(typologiesRoute, { siteId: site.id }, { buildingId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown).toMatchObject({ status: 200, body: { typologies: [] } });
  });

  it("property?shortlistId=not-a-uuid is a 400 naming shortlistId", async () => {
    const res = await get(propertyRoute, { siteId: site.id, id: listingId }, { shortlistId: "not-a-uuid" });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_parameter", message: "shortlistId: 'not-a-uuid' is not a UUID" });
    expect((await get(propertyRoute, { siteId: site.id, id: listingId })).status).toBe(200);
  });

  it("broker?tenantId=, brokers/public?ids= and resolve?siteId= already refuse one", async () => {
    expect((await get(brokerRoute, { siteId: site.id, listingId }, { tenantId: "x" })).status).toBe(400);
    expect((await get(brokersRoute, { siteId: site.id }, { ids: "x" })).status).toBe(400);
    expect((await get(resolveRoute, {}, { siteId: "x" })).status).toBe(400);
  });

  it("a path id that cannot exist is its record's 404", async () => {
    expect((await get(typologyRoute, { siteId: site.id, typologyId: "not-a-uuid" })).body.error.message).toBe("Typology not found");
    expect((await get(buildingRoute, { siteId: site.id, buildingId: "not-a-uuid" })).body.error.message).toBe("Building not found");
  });
});
