/**
 * Issue 32: `Authorization: bearer …` (any case of the scheme, RFC 9110 §11.1) must work wherever
 * a Bearer credential is read. The channel feeds, the channel lead webhook's secret and the
 * buildings import only took `Bearer` spelled exactly so; one parser (lib/auth/bearer.ts) now
 * serves every surface.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as messagingChannelsRoute from "../../../app/api/v1/messaging/channels/route";
import * as adminTenantsRoute from "../../../app/api/admin/tenants/route";
import * as mcpRoute from "../../../app/api/mcp/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as secretRoute from "../../../app/api/v1/settings/marketing-channels/[id]/secret/route";
import * as feedRoute from "../../../app/api/webhooks/channels/[pathToken]/listings/route";
import * as buildingsFeedRoute from "../../../app/api/webhooks/channels/[pathToken]/buildings/route";
import * as importRoute from "../../../app/api/webhooks/channels/[pathToken]/buildings/import/route";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import { bearerToken } from "../../../lib/auth/bearer";
import { verifyProviderRequest } from "../../../lib/providers/verify";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

const OPERATOR = "test-operator-token-0123456789";
const SCHEMES = ["bearer", "BEARER", "bEaReR", "Bearer"];
const SECRET = "lead-secret-0123456789abcdef";

let t: TestTenant;
let channel: { id: string; pathToken: string; feedToken: string };

beforeAll(async () => {
  t = await makeTenant();
  channel = (await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Portal", kind: "portal" } })).body;
});

const status = async (
  handler: (req: Request, seg: { params: Promise<any> }) => Promise<Response>,
  init: { method?: string; headers: Record<string, string>; body?: string },
  params: object = {},
) =>
  (
    await send(
      handler,
      new Request("http://localhost/x", { method: init.method ?? "GET", headers: { "content-type": "application/json", ...init.headers }, body: init.body }),
      params,
    )
  ).status;

describe("the Bearer scheme in any case", () => {
  it("is one parser: any case, one token, nothing else", () => {
    const h = (v: string) => new Headers({ authorization: v });
    for (const s of SCHEMES) expect(bearerToken(h(`${s} tok_123`))).toBe("tok_123");
    expect(bearerToken(h("Bearer\ttok_123 "))).toBe("tok_123");
    for (const bad of ["Basic dG9rOg==", "Bearer", "Bearer a b", "Bearertok", "tok_123"]) expect(bearerToken(h(bad))).toBeNull();
    expect(bearerToken(new Headers())).toBeNull();
  });

  it.each(SCHEMES)("%s: an API key on /api/v1 and messaging, the operator token on /api/admin, a key on /api/mcp", async (scheme) => {
    expect(await status(listingsRoute.GET, { headers: { authorization: `${scheme} ${t.key}` } })).toBe(200);
    expect(await status(messagingChannelsRoute.GET, { headers: { authorization: `${scheme} ${t.key}` } })).toBe(200);
    expect(await status(messagingChannelsRoute.GET, { headers: { "x-api-key": t.key } })).toBe(200);
    expect(await status(adminTenantsRoute.POST, { method: "POST", headers: { authorization: `${scheme} ${OPERATOR}` }, body: "{}" })).toBe(400); // past the token: the body is checked
    const mcp = await send(
      mcpRoute.POST,
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { authorization: `${scheme} ${t.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        }),
      }),
    );
    expect(mcp.status).toBe(200);
  });

  it.each(SCHEMES)("%s: a channel's feed token on its feeds and the buildings import", async (scheme) => {
    const auth = { authorization: `${scheme} ${channel.feedToken}` };
    const p = { pathToken: channel.pathToken };
    expect(await status(feedRoute.GET, { headers: auth }, p)).toBe(200);
    expect(await status(buildingsFeedRoute.GET, { headers: auth }, p)).toBe(200);
    expect(
      await status(
        importRoute.POST,
        { method: "POST", headers: auth, body: JSON.stringify({ buildings: [{ externalId: `b-${scheme}`, name: "Aurora" }] }) },
        p,
      ),
    ).toBe(200);
  });

  it.each(SCHEMES)("%s: a channel's secret on its lead webhook, and a provider's secret", async (scheme) => {
    await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: channel.id }, body: { secret: SECRET } });
    const lead = JSON.stringify({ name: "Ana", email: "ana@example.com", originLeadId: `bearer-${scheme}` });
    const p = { pathToken: channel.pathToken };
    expect(await status(webhookRoute.POST, { method: "POST", headers: { authorization: `${scheme} wrong-secret-0123456789` }, body: lead }, p)).toBe(401);
    expect(await status(webhookRoute.POST, { method: "POST", headers: { authorization: `${scheme} ${SECRET}` }, body: lead }, p)).toBe(202);
    expect(verifyProviderRequest(SECRET, "x-signature", new Headers({ authorization: `${scheme} ${SECRET}` }), Buffer.from("{}"))).toBe(true);
  });
});
