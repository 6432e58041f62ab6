/**
 * Routes whose JSON body is optional (a share link's resolve, a marketing channel's secret): no
 * body is fine, a body sent is read once like any other (under the size cap, JSON only), and a bad
 * one is a clear 4xx that changes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as shareRoute from "../../../app/api/sites/share/[token]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as secretRoute from "../../../app/api/v1/settings/marketing-channels/[id]/secret/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";

let t: TestTenant;
let ip = 0;
const client = () => ({ [CLIENT_ADDRESS_HEADER]: `10.31.${Math.floor(++ip / 250)}.${ip % 250}` });

beforeAll(async () => {
  t = await makeTenant();
});

describe("a share link's resolve (POST)", () => {
  it("resolves without a body, and refuses a malformed, non-JSON or too large one with a 4xx", async () => {
    const { token } = await makeShareLink(t, { entityType: "listing", entityId: (await makeListing(t)).id });
    const post = (opts: { rawBody?: string; headers?: Record<string, string> } = {}) =>
      call(shareRoute.POST, "POST", `/api/sites/share/${token}`, { params: { token }, ...opts, headers: { ...client(), ...opts.headers } });
    expect((await post()).status).toBe(200);
    const bad = await post({ rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_json");
    expect((await post({ rawBody: "{}", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await post({ rawBody: JSON.stringify({ pad: "x".repeat(1_100_000) }) })).status).toBe(413);
  });
});

describe("a marketing channel's secret (POST)", () => {
  it("generates one without a body, refuses a malformed body, and another tenant's channel is a 404", async () => {
    const created = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Portal", kind: "portal" } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const bad = await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id }, rawBody: "{secret:" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_json");
    const large = await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id }, body: { secret: "x".repeat(1_100_000) } });
    expect(large.status).toBe(413);
    const generated = await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id } });
    expect(generated.status).toBe(200);
    expect(generated.body.secret).toMatch(/^whsec_/);
    const other = await makeTenant();
    expect((await call(secretRoute.POST, "POST", "/x", { key: other.key, params: { id } })).status).toBe(404);
  });
});
