/**
 * The catalogue's "Avise-me" form (`POST /alertas` on a site, plain HTML): a saved search stored
 * pending with the catalogue's filters and the visitor's consent, then a 303 back to the page it
 * was on with the outcome at the form; bad input stores nothing; the per-address limit answers
 * `limited`; a landing page off the site never leaves it.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as alertsRoute from "../../../app/site-render/[site]/[locale]/alertas/route";
import { getDb } from "../../../db/client";
import { savedSearches } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeSite } from "../../helpers/sites";

// The site's pages read the request's host through Next.js; here it is the site's domain.
let host = "localhost";
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host, "x-forwarded-proto": "https" }) }));

let t: TestTenant;
let site: { id: string; domain: string };
let ip = 0;

beforeAll(async () => {
  t = await makeTenant();
  site = await makeSite(t);
  host = site.domain;
});

const post = (fields: Record<string, string>, address = `10.9.0.${++ip}`) =>
  alertsRoute.POST(
    new Request(`https://${site.domain}/alertas`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", host: site.domain, [CLIENT_ADDRESS_HEADER]: address },
      body: new URLSearchParams(fields),
    }),
    { params: Promise.resolve({ site: `d~${site.domain}`, locale: "pt-BR" }) },
  );

const stored = async () => (await getDb()).select().from(savedSearches).where(eq(savedSearches.siteId, site.id));

describe("POST /alertas (the Avise-me form)", () => {
  it("stores a pending search with the catalogue's filters and consent, and goes back to the catalogue at the form", async () => {
    const res = await post({
      type: "sale",
      city: "São Paulo",
      maxPrice: "900000",
      bedrooms: "2",
      name: "Bia",
      email: "bia@example.com",
      channel: "email",
      frequency: "daily",
      consent: "yes",
      landingPage: "/imoveis?type=sale&city=S%C3%A3o+Paulo",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/imoveis?type=sale&city=S%C3%A3o+Paulo&alerta=sent#avise-me");
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", channel: "email", frequency: "daily", email: "bia@example.com", contactName: "Bia", locale: "pt-BR" });
    expect(rows[0].filters).toMatchObject({ type: "sale", city: "São Paulo", maxPrice: 900000, bedrooms: 2 });
  });

  it("without consent or a way to reach the visitor: invalid, nothing stored", async () => {
    const before = (await stored()).length;
    const bad: Record<string, string>[] = [
      { email: "ana@example.com", channel: "email", landingPage: "/imoveis" },
      { consent: "yes", channel: "email", landingPage: "/imoveis" },
      { consent: "yes", channel: "email", email: "not-an-address", landingPage: "/imoveis" },
    ];
    for (const fields of bad) {
      const res = await post(fields);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/imoveis?alerta=invalid#avise-me");
    }
    expect((await stored()).length).toBe(before);
  });

  it("a landing page off the site goes back to the catalogue; past the per-address limit the answer is limited", async () => {
    const off = await post({ email: "c@example.com", channel: "email", consent: "yes", landingPage: "//evil.example/x" });
    expect(off.headers.get("location")).toBe("/imoveis?alerta=sent#avise-me");
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await post({ email: `d${i}@example.com`, channel: "email", consent: "yes", landingPage: "/imoveis" }, "10.9.9.9");
      outcomes.push(new URLSearchParams(res.headers.get("location")!.split("?")[1].split("#")[0]).get("alerta")!);
    }
    expect(outcomes.filter((o) => o === "limited").length).toBeGreaterThan(0);
    expect(outcomes.slice(0, outcomes.indexOf("limited")).every((o) => o === "sent")).toBe(true);
  });
});
