/**
 * The listing map on a share page: the drawing plus `/listing-map.js` (which draws the same point
 * on tiles), at the precision the link's rules give: the approximate point and its 500 m circle
 * when the address is hidden, the exact point when allowed, no map at all when coordinates are
 * hidden. The page's policy lets our own script and stylesheet in only when the map is there.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as pageRoute from "../../../app/share-render/[locale]/p/[token]/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { distanceMeters } from "../../../lib/share/route-plan";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";

const TRUE = { latitude: -23.5558, longitude: -46.6896 };
let t: TestTenant;
let token: string;

async function sharePage() {
  const headers = new Headers({ host: "localhost:3000", [CLIENT_ADDRESS_HEADER]: "10.98.0.1" });
  const res = await pageRoute.GET(new Request(`http://localhost:3000/share-render/pt-BR/p/${token}`, { headers }), {
    params: Promise.resolve({ locale: "pt-BR", token }),
  });
  expect(res.status).toBe(200);
  const html = await res.text();
  const fig = /<figure class="map" data-map=""([^>]*)>/.exec(html);
  const attr = (name: string) => (fig ? new RegExp(`${name}="([^"]*)"`).exec(fig[1])?.[1] : undefined);
  return { html, csp: res.headers.get("content-security-policy") ?? "", fig, attr };
}

const setCoordinates = async (coordinates: string) => {
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { fieldVisibility: { coordinates } } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

beforeAll(async () => {
  vi.stubEnv("MAP_TILES_URL", "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png");
  vi.stubEnv("MAP_TILES_ATTRIBUTION", "Test tiles");
  resetConfigForTests();
  t = await makeTenant("Imobiliária Mapa");
  const l = await makeListing(t, {}, {}, TRUE);
  token = (await makeShareLink(t, { entityType: "listing", entityId: l.id })).token;
});

describe("the map on a share page", () => {
  it("approximate: the displaced point and a 500 m circle that holds the true place, never the true point", async () => {
    await setCoordinates("approximate");
    const p = await sharePage();
    expect(p.fig).not.toBeNull();
    const at = { latitude: Number(p.attr("data-lat")), longitude: Number(p.attr("data-lng")) };
    expect(distanceMeters(TRUE, at)).toBeGreaterThan(140);
    expect(distanceMeters(TRUE, at)).toBeLessThanOrEqual(Number(p.attr("data-radius")));
    expect(p.attr("data-radius")).toBe("500");
    // The true latitude nowhere as a number of its own (the displaced one may begin with the same
    // digits when the point moved mostly east or west).
    expect(p.html).not.toMatch(new RegExp(`${String(TRUE.latitude).replace(".", "\\.")}(?![0-9])`));
    expect(p.attr("data-tiles")).toBe("http://127.0.0.1:9/tiles/{z}/{x}/{y}.png");
    expect(p.attr("data-attribution")).toBe("Test tiles");
    expect(p.html).toContain('<script src="/listing-map.js" defer=""></script>');
    // The drawing stays in the page: the map without JavaScript.
    expect(p.html).toMatch(/<svg viewBox="0 0 600 240" role="img"/);
    expect(p.csp).toContain("script-src 'self'");
    expect(p.csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(p.csp).toContain("default-src 'none'");
  });

  it("exact when the link's rules allow it: the true point, no circle", async () => {
    await setCoordinates("exact");
    const p = await sharePage();
    expect([Number(p.attr("data-lat")), Number(p.attr("data-lng")), p.attr("data-radius")]).toEqual([TRUE.latitude, TRUE.longitude, "0"]);
  });

  it("hidden coordinates: no map, no script, and the policy allows none", async () => {
    await setCoordinates("hidden");
    const p = await sharePage();
    expect(p.fig).toBeNull();
    expect(p.html).not.toContain("listing-map.js");
    expect(p.csp).not.toContain("script-src");
    expect(p.csp).toContain("style-src 'unsafe-inline'");
  });
});
