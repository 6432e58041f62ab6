/**
 * What the link preview image (`/p/{token}/og`) fetches, counted on a real image server on
 * 127.0.0.1. An open link fetches the tenant's logo and the cover photo; an expired or
 * password-protected link shows the tenant's branding only, so it fetches the logo and never the
 * cover. In production with private targets refused, it fetches nothing from 127.0.0.1 at all and
 * still answers its card.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as ogRoute from "../../../app/share-render/[locale]/p/[token]/og/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { shareLinks } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { production, startListener, type Listener } from "../../helpers/outbound";
import { makeListing, makeShareLink } from "../../helpers/share";

let img: Listener;
let t: TestTenant;
let listing: { id: string };

beforeAll(async () => {
  img = await startListener();
  t = await makeTenant("Imobiliária Prévia");
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", {
    key: t.key,
    body: { branding: { name: "Imobiliária Prévia", logo: `${img.origin}/img/logo.png`, primaryColor: "#0f766e" } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  listing = await makeListing(t, {}, { media: [{ url: `${img.origin}/img/cover.png`, isPrimary: true, alt: "Sala" }] });
});
afterAll(() => img.close());
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

/** The preview image of a new link (a new token: nothing cached), and the paths the image server saw meanwhile. */
async function preview(body: Record<string, unknown>, change?: (id: string) => Promise<unknown>) {
  const link = await makeShareLink(t, { entityType: "listing", entityId: listing.id, ...body });
  if (change) await change(link.id);
  const before = img.requests.length;
  const connections = img.connections;
  const req = new Request(`http://localhost:3000/share-render/pt-BR/p/${link.token}/og`, { headers: { host: "localhost:3000" } });
  const res = await ogRoute.GET(req, { params: Promise.resolve({ locale: "pt-BR", token: link.token }) });
  const png = await res.arrayBuffer();
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    bytes: png.byteLength,
    fetched: img.requests.slice(before),
    connections: img.connections - connections,
  };
}

const expire = async (id: string) =>
  (await getDb())
    .update(shareLinks)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(shareLinks.id, id));

describe("the preview image's fetches", () => {
  it("an open link: the logo and the cover", async () => {
    const p = await preview({});
    expect(p).toMatchObject({ status: 200, type: "image/png" });
    expect(p.fetched.sort()).toEqual(["/img/cover.png", "/img/logo.png"]);
  });

  it("expired and password-protected links: the logo only, never the cover", async () => {
    const expired = await preview({}, expire);
    const locked = await preview({ password: "segredo1" });
    for (const p of [expired, locked]) {
      expect(p).toMatchObject({ status: 200, type: "image/png" });
      expect(p.fetched).toEqual(["/img/logo.png"]);
    }
  });

  it("in production with private targets refused: no connection at all, the card still renders", async () => {
    production(false);
    for (const p of [await preview({}), await preview({}, expire), await preview({ password: "segredo1" })]) {
      expect(p).toMatchObject({ status: 200, type: "image/png", fetched: [], connections: 0 });
      expect(p.bytes).toBeGreaterThan(1000);
    }
  });
});
