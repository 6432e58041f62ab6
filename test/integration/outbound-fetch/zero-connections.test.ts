/**
 * With private targets refused (production, WEBHOOKS_ALLOW_PRIVATE_URLS=false), no sink that
 * fetches a tenant's or visitor's URL opens a single TCP connection to a listener on 127.0.0.1,
 * whatever form the address takes; each fails the way its caller expects (a delivery log error,
 * a GatewayError, no coordinates, a card without the image). The control at the end makes the
 * same calls with the switch on and sees them arrive, so a zero is not a listener that cannot be
 * reached. Names are resolved through a stubbed dns.lookup (offline), the same function the
 * guard's lookup calls.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { imageData, renderOgImage } from "../../../app/share-render/_share/og-image";
import type { OgContent } from "../../../app/share-render/_share/og";
import { resetConfigForTests } from "../../../lib/config";
import { geocode } from "../../../lib/geo/geocode";
import { GatewayError, gatewayJson } from "../../../lib/messaging/providers/gateway-http";
import { wahaAdapter } from "../../../lib/messaging/providers/waha";
import { cloudAdapter } from "../../../lib/messaging/providers/whatsapp-cloud";
import { postWebhook } from "../../../lib/event-delivery/send-webhook";
import { fakeDns, production, startListener, type Listener } from "../../helpers/outbound";

let l: Listener;
let renders = 0;
beforeAll(async () => {
  l = await startListener();
});
afterAll(() => l.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfigForTests();
});

/** Every way of writing "this machine" that a URL can carry, and names that resolve to it. */
const forms = (port: number) => [
  `http://127.0.0.1:${port}`,
  `http://127.1:${port}`,
  `http://2130706433:${port}`,
  `http://0x7f.0.0.1:${port}`,
  `http://localhost:${port}`,
  `http://localhost.:${port}`,
  `http://app.localhost:${port}`,
  `http://[::ffff:127.0.0.1]:${port}`,
  `http://[::ffff:7f00:1]:${port}`,
  `http://[::127.0.0.1]:${port}`,
  `http://[64:ff9b::7f00:1]:${port}`,
  `http://[::1]:${port}`,
  `http://rebind.test:${port}`,
  `http://mixed.test:${port}`,
];
const DNS = { "rebind.test": ["127.0.0.1"], "mixed.test": ["8.8.8.8", "127.0.0.1"] };

const card = (url: string): OgContent => ({
  kind: "entity",
  brandName: "Imobiliária",
  color: "#0f766e",
  onColor: "#ffffff",
  logo: `${url}/img/logo.png`,
  title: "Apartamento",
  subtitle: "R$ 1",
  description: "",
  cover: `${url}/img/cover.png`,
});

/** Each sink, driven at `url`; resolves to what it reported. */
const sinks: Record<string, (url: string) => Promise<unknown>> = {
  webhook: (url) => postWebhook(`${url}/hooks`, { "content-type": "application/json" }, "{}", 2000),
  gateway: (url) => gatewayJson("GET", `${url}/api/sessions/default`, {}, undefined, AbortSignal.timeout(2000)).catch((e) => e),
  "waha adapter": (url) =>
    wahaAdapter(url, { apiKey: "k", sessionName: "default" })
      .sendText("5511999990000@c.us", "oi", AbortSignal.timeout(2000))
      .catch((e) => e),
  "cloud adapter": (url) =>
    cloudAdapter(url, { apiKey: "k", sessionName: "123" })
      .status(AbortSignal.timeout(2000))
      .catch((e) => e),
  geocoder: async (url) => {
    vi.stubEnv("GEOCODER_URL", url);
    resetConfigForTests();
    return geocode({ street: "Rua Harmonia", number: "1", city: "São Paulo" });
  },
  "og image": (url) => imageData(`${url}/img/logo.png`),
  // A fresh cache key each time, so every call renders (and fetches) again.
  "og card": async (url) => (await renderOgImage(`zero|${url}|${++renders}`, card(url))).png.byteLength,
};

describe("with private targets refused, no sink connects to 127.0.0.1", () => {
  it.each(Object.keys(sinks))("%s: zero connections from every address form, a clean failure", async (name) => {
    production(false);
    fakeDns(DNS);
    const before = l.connections;
    for (const url of forms(l.port)) {
      const out = await sinks[name](url);
      if (name === "webhook") expect((out as { error: string }).error, url).toMatch(/^EPRIVATEADDRESS: refused: .*non-public address/);
      else if (name.startsWith("gateway") || name.endsWith("adapter")) {
        expect(out, url).toBeInstanceOf(GatewayError);
        expect((out as GatewayError).kind, url).toBe("unreachable");
        expect((out as GatewayError).message, url).toMatch(/EPRIVATEADDRESS: refused/);
      } else if (name === "og card") expect(out, url).toBeGreaterThan(1000);
      else expect(out, url).toBeNull();
    }
    expect(l.connections - before).toBe(0);
  });

  it("the control: with the switch on the same calls connect", async () => {
    production(true);
    fakeDns(DNS);
    for (const name of Object.keys(sinks)) {
      const before = l.connections + l.requests.length;
      const out = await sinks[name](`http://rebind.test:${l.port}`);
      expect(l.connections + l.requests.length, name).toBeGreaterThan(before);
      if (name === "og image") expect(out).toMatch(/^data:image\/png;base64,/);
      if (name === "geocoder") expect(out).toEqual({ latitude: -23.5, longitude: -46.6 });
      if (name === "webhook") expect(out).toMatchObject({ statusCode: 200, error: null });
    }
  });
});
