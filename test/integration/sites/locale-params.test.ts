/**
 * Issue 32: the public sites interface answered 400 to `?locale=` (strict query schemas), yet
 * spec 2 §2.2 says it never rewrites text by a locale parameter, so clients send one. `locale`
 * and `lang` are ignored on every `/api/sites` endpoint: the answer is the one without them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as resolveRoute from "../../../app/api/sites/resolve/route";
import * as cdnResolveRoute from "../../../app/site/api/sites/resolve/route";
import * as configRoute from "../../../app/api/sites/[siteId]/public-config/route";
import * as propertyRoute from "../../../app/api/sites/[siteId]/property/[id]/route";
import * as similarRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/similar/route";
import * as locationsRoute from "../../../app/api/sites/[siteId]/locations/route";
import * as validateRoute from "../../../app/api/sites/[siteId]/locations/validate/route";
import * as collectionsRoute from "../../../app/api/sites/[siteId]/cms/collections/route";
import * as typologiesRoute from "../../../app/api/sites/[siteId]/typologies/route";
import * as searchRoute from "../../../app/api/sites/[siteId]/search/route";
import * as shareRoute from "../../../app/api/sites/share/[token]/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.33.${Math.floor(++ip / 250)}.${ip % 250}` });

let t: TestTenant;
let site: { id: string; domain: string };
let listing: { id: string; code: string };
let token: string;

beforeAll(async () => {
  t = await makeTenant();
  site = await makeSite(t);
  listing = await makeListing(t);
  token = (await makeShareLink(t, { entityType: "listing", entityId: listing.id })).token;
});

type Case = [name: string, handler: any, params: Record<string, string>, query: Record<string, string>, body?: unknown];
const cases = (): Case[] => [
  ["resolve", resolveRoute.GET, {}, { siteId: site.id }],
  ["resolve (CDN address)", cdnResolveRoute.GET, {}, { domain: site.domain }],
  ["public-config", configRoute.GET, { siteId: site.id }, {}],
  ["property", propertyRoute.GET, { siteId: site.id, id: listing.code }, {}],
  ["similar", similarRoute.GET, { siteId: site.id, listingId: listing.id }, { limit: "3" }],
  ["locations", locationsRoute.GET, { siteId: site.id }, {}],
  ["locations/validate", validateRoute.GET, { siteId: site.id }, { path: "sp/sao-paulo" }],
  ["cms collections", collectionsRoute.GET, { siteId: site.id }, {}],
  ["typologies", typologiesRoute.GET, { siteId: site.id }, { buildingId: "00000000-0000-4000-8000-000000000000" }],
  ["search", searchRoute.POST, { siteId: site.id }, {}, { q: "*", per_page: 5 }],
  ["share", shareRoute.GET, { token }, {}],
];

/** What may differ between two identical calls: build and search times. */
const stable = (body: any) => JSON.parse(JSON.stringify(body, (k, v) => (k === "cachedAt" || k === "search_time_ms" ? undefined : v)));

describe("?locale= and ?lang= on the public sites interface", () => {
  it("are ignored: every answer is the one without them", async () => {
    for (const [name, handler, params, query, body] of cases()) {
      const method = body === undefined ? "GET" : "POST";
      const plain = await call(handler, method, "/x", { params, query, body, headers: headers() });
      expect(plain.status, name).toBe(200);
      for (const extra of <Record<string, string>[]>[{ locale: "en" }, { lang: "es" }, { locale: "pt-BR", lang: "en" }, { Locale: "es" }]) {
        const res = await call(handler, method, "/x", { params, query: { ...query, ...extra }, body, headers: headers() });
        expect(res.status, `${name} ${JSON.stringify(extra)}`).toBe(200);
        expect(stable(res.body), `${name} ${JSON.stringify(extra)}`).toEqual(stable(plain.body));
      }
    }
  });

  it("leave other unknown parameters refused", async () => {
    const res = await call(locationsRoute.GET, "GET", "/x", { params: { siteId: site.id }, query: { locale: "en", lnag: "es" }, headers: headers() });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("lnag");
    expect(res.body.error.message).not.toContain("locale");
  });
});
