/**
 * The chat button on share pages: present (with its deferred launcher script and a CSP that lets
 * that script and its requests through) only when the tenant's share pages carry a web chat, and
 * translated. The widget itself loads only when the button is used (public/chat/launcher.js).
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import * as pageRoute from "../../../app/share-render/[locale]/p/[token]/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";

let t: TestTenant;
let token: string;
let listingId: string;
let ip = 0;

async function page(locale = "pt-BR") {
  const headers = new Headers({ host: "localhost:3000", [CLIENT_ADDRESS_HEADER]: `10.18.0.${++ip}` });
  const req = new Request(`http://localhost:3000/share-render/${locale}/p/${token}`, { headers });
  const res = await pageRoute.GET(req, { params: Promise.resolve({ locale, token }) });
  return { status: res.status, csp: res.headers.get("content-security-policy") ?? "", html: await res.text() };
}

beforeAll(async () => {
  t = await makeTenant();
  listingId = (await makeListing(t)).id;
  token = (await makeShareLink(t, { entityType: "listing", entityId: listingId })).token;
});

describe("share page chat button", () => {
  it("is absent, with no chat script and no connections allowed, while share pages carry no chat", async () => {
    const p = await page();
    expect(p.status).toBe(200);
    expect(p.html).not.toContain('id="wc"');
    // The listing's map is the page's only script (public/listing-map.js); nothing of the chat, no connections.
    expect(p.html).not.toContain("/chat/launcher.js");
    expect(p.html.match(/<script[^>]*>/g) ?? []).toEqual(['<script src="/listing-map.js" defer="">']);
    expect(p.csp).not.toContain("connect-src");
  });

  it("is a labelled button with a deferred launcher once a web_chat channel is attached, in the page's language", async () => {
    const ch = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Chat", transport: "web_chat" } });
    const set = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { sharingConfig: { chatChannelId: ch.body.id }, listingLanguages: ["pt-BR", "en", "es"] },
    });
    expect(set.status).toBe(200);
    const p = await page();
    expect(p.html).toContain(`data-api="/api/sites/share/${token}/chat"`);
    expect(p.html).toMatch(
      /<button type="button" class="wc-open" aria-haspopup="dialog" aria-expanded="false" aria-controls="wc-panel"[^>]*>Converse conosco<\/button>/,
    );
    expect(p.html).toContain('<script src="/chat/launcher.js" defer=""></script>');
    expect(p.html).toContain(`data-listing="${listingId}"`);
    expect(p.csp).toContain("script-src 'self'");
    expect(p.csp).toContain("connect-src 'self'");
    expect((await page("en")).html).toContain(">Chat with us</button>");
    expect((await page("es")).html).toContain(">Habla con nosotros</button>");
    // The launcher stays tiny: the widget is fetched only when the button is used.
    expect(fs.statSync("public/chat/launcher.js").size).toBeLessThan(1024);
    expect(fs.readFileSync("public/chat/launcher.js", "utf8")).toContain("/chat/widget.js");
  });
});
