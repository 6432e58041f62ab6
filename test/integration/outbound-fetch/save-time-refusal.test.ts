/**
 * Webhook URLs and gateway base URLs that point at a non-public address are refused when saved
 * (400 naming the field, the host, the address and its range), not only when used: IP literals,
 * `localhost` names, and names that resolve now to such an address (any of them). A name that does
 * not resolve is accepted (see docs/decisions.md). Names resolve through a stubbed dns.lookup.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as channelRoute from "../../../app/api/v1/settings/messaging-channels/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import { resetConfigForTests } from "../../../lib/config";
import { assertPublicUrl } from "../../../lib/outbound-fetch/assert-public-url";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel } from "../../helpers/messaging";
import { fakeDns, production } from "../../helpers/outbound";

let t: TestTenant;
beforeAll(async () => {
  t = await makeTenant();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfigForTests();
});

const DNS = {
  "hooks.internal.example": ["10.0.0.5"],
  "mixed.example": ["8.8.8.8", "192.168.1.10"],
  "meta.example": ["169.254.169.254"],
  "v6.internal.example": ["fd12::1"],
  "public.example": ["8.8.8.8", "2001:4860:4860::8888"],
  "not-yet.example": null,
};

const putHook = (url: string) =>
  call(webhooksRoute.PUT, "PUT", "/api/v1/settings/webhooks", { key: t.key, body: { url, events: ["deal.created"], hmac: false, bearer: false } });

describe("webhook URL, saved in production", () => {
  it("400 for a private, loopback or metadata host, literal or resolved", async () => {
    production(false);
    fakeDns(DNS);
    const cases: [string, RegExp][] = [
      [
        "https://10.0.0.5/x",
        /^body field `url`: 10\.0\.0\.5 is a private address; give a public address, or set WEBHOOKS_ALLOW_PRIVATE_URLS=true for an internal receiver\.$/,
      ],
      ["https://127.0.0.1:8443/x", /127\.0\.0\.1 is a loopback address/],
      ["https://[::ffff:127.0.0.1]/x", /::ffff:7f00:1 is an IPv4-mapped loopback address/],
      ["https://100.64.1.2/x", /100\.64\.1\.2 is a carrier-grade NAT address/],
      ["https://[fd00::1]/x", /fd00::1 is a unique-local address/],
      ["https://0.0.0.0/x", /0\.0\.0\.0 is an unspecified address/],
      ["https://localhost/x", /^body field `url`: localhost names this machine \(loopback\)/],
      ["https://api.localhost/x", /names this machine/],
      ["https://169.254.169.254/latest", /^body field `url`: 169\.254\.169\.254 is a cloud metadata address; give the address of a server you run\.$/],
      ["https://hooks.internal.example/crm", /^body field `url`: hooks\.internal\.example resolves to a private address; .*WEBHOOKS_ALLOW_PRIVATE_URLS=true/],
      ["https://mixed.example/crm", /mixed\.example resolves to a private address(?!.*192\.168)/],
      ["https://meta.example/crm", /meta\.example resolves to a cloud metadata address(?!.*169\.254)/],
      ["https://v6.internal.example/crm", /resolves to a unique-local address(?!.*fd12)/],
    ];
    for (const [url, message] of cases) {
      const res = await putHook(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatchObject({ code: "invalid_request", message: expect.stringMatching(message) });
    }
    // Public, and not resolving yet: saved.
    expect((await putHook("https://public.example/crm")).status).toBe(200);
    expect((await putHook("https://not-yet.example/crm")).status).toBe(200);
  });

  it("the switch on (WEBHOOKS_ALLOW_PRIVATE_URLS=true) takes internal receivers, still not the metadata service", async () => {
    production(true);
    fakeDns(DNS);
    expect((await putHook("https://10.0.0.5/x")).status).toBe(200);
    expect((await putHook("https://hooks.internal.example/crm")).status).toBe(200);
    expect((await putHook("https://169.254.169.254/x")).status).toBe(400);
  });

  it("outside production (tests, development) a 127.0.0.1 receiver is saved as before", async () => {
    expect((await putHook("http://127.0.0.1:9/hooks")).status).toBe(200);
    expect((await putHook("http://169.254.169.254/x")).status).toBe(400);
  });
});

describe("gateway base URL, saved in production", () => {
  const body = (baseUrl: string) => ({ name: "WhatsApp", transport: "whatsapp", provider: "waha", baseUrl, apiKey: "k", sessionName: "default" });

  it("400 on create and on update, naming baseUrl", async () => {
    const channel = await makeWahaChannel(t, { url: "http://127.0.0.1:9", apiKey: "k", session: "default" } as never);
    production(false);
    fakeDns({ ...DNS, "waha.internal.example": ["10.1.2.3"] });
    for (const url of ["https://10.0.0.5", "https://[::1]:8080", "https://waha.internal.example", "https://mixed.example"]) {
      const created = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body(url) });
      expect(created.status, url).toBe(400);
      expect(created.body.error.message, url).toMatch(/^body field `baseUrl`: .*(is a|resolves to a) .*address.*for a gateway on an internal network\.$/);
      const patched = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: channel.id }, body: { baseUrl: url } });
      expect(patched.status, url).toBe(400);
      expect(patched.body.error.message, url).toContain("baseUrl");
    }
    expect(
      (await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: channel.id }, body: { baseUrl: "https://public.example" } })).status,
    ).toBe(200);
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: channel.id }, body: { name: "only the name" } })).status).toBe(200);
  });
});

describe("assertPublicUrl", () => {
  it("accepts a name whose lookup outlasts the timeout", async () => {
    production(false);
    const dns = await import("node:dns");
    vi.spyOn(dns.default.promises, "lookup").mockImplementation((() => new Promise(() => {})) as never);
    const started = Date.now();
    await expect(assertPublicUrl("url", "https://slow.example/x", "an internal receiver", 100)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
