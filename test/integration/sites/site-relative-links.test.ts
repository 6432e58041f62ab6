/**
 * Issue 32, D6: `/\evil.example` passed the "site-relative" checks (`startsWith("/") &&
 * !startsWith("//")`), and browsers read it as `//evil.example`. The lead form answered 303 to
 * it and a menu link rendered it. Both replay the probe through the real handler and component.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";

// Pages read the request's host and locale from Next.js; these tests are outside a request.
let host = "localhost";
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host, "x-forwarded-proto": "https" }) }));
vi.mock("next-intl/server", () => ({ getLocale: async () => "pt-BR" }));

import { findSiteView } from "../../../app/site-render/_site/context";
import { SiteFooter, SiteHeader } from "../../../app/site-render/_site/components/chrome";
import { CtaBlock, ImageBlock } from "../../../app/site-render/_site/puck/blocks";
import { RichText } from "../../../app/_ui/rich-text";
import { safeUrl } from "../../../lib/util/safe-url";
import * as leadRoute from "../../../app/site-render/[site]/[locale]/lead/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import { parseLead } from "../../../lib/leads/inbound/parse-lead";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const EVIL = "/\\evil.example";
let t: TestTenant;
let site: { id: string; domain: string };

beforeAll(async () => {
  t = await makeTenant();
  site = await makeSite(t, {
    configuration: {
      siteConfiguration: {
        menu: [
          { label: "Evil", href: EVIL },
          { label: "Evil tab", href: "/\t/evil.example" },
          { label: "Imóveis", href: "/imoveis" },
        ],
        footer: {
          links: [
            { label: "Evil", href: EVIL },
            { label: "Contato", href: "/contato" },
          ],
        },
      },
    },
  });
  host = site.domain;
  const ch = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Site", kind: "website" } });
  expect(ch.status).toBe(201);
});

const postLead = (landingPage: string) => {
  const form = new URLSearchParams({ name: "Ana", email: "ana@example.com", landingPage });
  const req = new Request(`https://${site.domain}/lead`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", host: site.domain },
    body: form,
  });
  return leadRoute.POST(req, { params: Promise.resolve({ site: `d~${site.domain}`, locale: "pt-BR" }) });
};

describe("the lead form's landingPage", () => {
  it("never sends the visitor off-site: /\\evil.example goes back to the site's home", async () => {
    for (const landing of [EVIL, "/\\\\evil", "//evil.example", "/%5Cevil.example", "/\t/evil.example", "/..//evil.example", "javascript:alert(1)"]) {
      const res = await postLead(landing);
      expect(res.status).toBe(303);
      const location = res.headers.get("location")!;
      expect(location).not.toMatch(/\\|%5c|evil/i);
      expect(new URL(location, `https://${site.domain}`).origin).toBe(`https://${site.domain}`);
      expect(location).toBe("/?lead=sent#lead");
    }
  });
  it("still returns to the page the form was on", async () => {
    const res = await postLead("/imoveis?bedrooms=2");
    expect(res.headers.get("location")).toBe("/imoveis?bedrooms=2&lead=sent#lead");
  });
  it("is not stored as an attribution landing page", () => {
    const lead = parseLead({ contactName: "Ana", landingPage: EVIL, siteDomain: site.domain }, null) as unknown as { attribution: Record<string, string> };
    expect(lead.attribution.landingPage).toBeUndefined();
    const ok = parseLead({ contactName: "Ana", landingPage: "/imoveis", siteDomain: site.domain }, null) as unknown as { attribution: Record<string, string> };
    expect(ok.attribution.landingPage).toBe(`https://${site.domain}/imoveis`);
  });
});

describe("links the site renders from its configuration", () => {
  it("leave out a menu or footer href /\\evil.example, keep the site's own", async () => {
    const view = (await findSiteView(`d~${site.domain}`, "pt-BR"))!;
    expect(view).not.toBeNull();
    const markup = renderToStaticMarkup(await SiteHeader({ site: view, path: "/" })) + renderToStaticMarkup(await SiteFooter({ site: view }));
    expect(markup).not.toMatch(/evil/);
    expect(markup).not.toContain("\\");
    expect(markup).toContain('href="/imoveis"');
    expect(markup).toContain('href="/contato"');
  });
  it("leave out a call to action, an image, a rich-text link and a share-page link to it", async () => {
    const view = (await findSiteView(`d~${site.domain}`, "pt-BR"))!;
    const cta = renderToStaticMarkup(CtaBlock({ p: { title: "x", buttonLabel: "Go", buttonHref: EVIL }, ctx: { site: view } as never }));
    expect(cta).not.toMatch(/evil|<a /);
    expect(ImageBlock({ p: { src: EVIL } })).toBeNull();
    const rich = renderToStaticMarkup(RichText({ html: `<a href="/&#92;evil.example">x</a><a href="${EVIL}">y</a>` }));
    expect(rich).not.toMatch(/href/);
    expect(safeUrl(EVIL)).toBeNull();
    expect(safeUrl("/%5Cevil.example")).toBeNull();
  });
});
