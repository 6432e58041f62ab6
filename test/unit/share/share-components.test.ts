import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListingCard } from "../../../app/_ui/listing-card";
import { orderedStops, routeUrl } from "../../../app/share-render/_share/itinerary-view";
import { ShareBody } from "../../../app/share-render/_share/share-body";
import type { ShareView } from "../../../app/share-render/_share/share-view";
import { drawable, ogContent, ogVersion } from "../../../app/share-render/_share/og";
import { clip } from "../../../app/share-render/_share/og-image";
import { contrastRatio, inkOnWhite, textOn } from "../../../lib/brand/brand-colors";
import { translator } from "../../../lib/i18n/translator";
import { listingCardView } from "../../../lib/listings/view/listing-card";
import type { ShareAnswer, SharePage } from "../../../lib/share/share-page";
import { safeImageUrl, safeUrl } from "../../../lib/util/safe-url";

const branding = { name: "Casa Nova Imóveis", logo: "/demo/logo.svg", primaryColor: "#0f766e" };
const t = translator("pt-BR");
const listingAnswer = (listing: Record<string, unknown>, extra: Record<string, unknown> = {}): ShareAnswer => ({
  token: { id: "x", entityType: "listing", entityId: "y", dealId: null, createdBy: null },
  entity: {
    type: "listing",
    listing,
    property: { type: "apartment" },
    medias: [{ id: "m", src: "/demo/cover.svg", alt: "Sala", type: "photo", category: null, order: 0, isPrimary: true }],
    agent: null,
    ...extra,
  },
  branding,
  tenantConfig: { propertyTypes: [], propertyFeatures: [] },
  site: { hasSite: false, domain: null, siteId: null },
  tenantId: "t",
  showFinancialSimulator: true,
  languages: ["pt-BR"],
});
const doc = {
  id: "l1",
  title: "Apartamento em Pinheiros",
  price: 1250000,
  listingType: "sale",
  location_neighborhood: "Pinheiros",
  location_city: "São Paulo",
  listingCode: "AP1",
};

describe("preview image inputs (ogContent)", () => {
  it("an open listing: title, price and place, cover photo, tenant logo", () => {
    const c = ogContent({ state: "open", answer: listingAnswer(doc), hostKind: "service" }, "pt-BR", t);
    expect(c.kind).toBe("entity");
    expect(c.title).toBe("Apartamento em Pinheiros");
    expect(c.subtitle).toMatch(/^R\$\s1\.250\.000 · Pinheiros, São Paulo$/);
    expect(c.cover).toBe("/demo/cover.svg");
    expect(c.logo).toBe("/demo/logo.svg");
    expect(c.onColor).toBe("#ffffff");
  });
  it("a hidden price reads 'Consulte'", () => {
    const c = ogContent({ state: "open", answer: listingAnswer({ ...doc, price: null }), hostKind: "service" }, "pt-BR", t);
    expect(c.subtitle).toBe("Consulte · Pinheiros, São Paulo");
  });
  it("protected, wrong password, throttled and expired links: the tenant's branding only", () => {
    for (const state of ["password_required", "password_wrong", "throttled", "expired"] as const) {
      const page: SharePage = { state, branding, languages: ["pt-BR"] };
      const c = ogContent(page, "pt-BR", t);
      expect(c).toEqual({
        kind: "branding",
        brandName: "Casa Nova Imóveis",
        color: "#0f766e",
        onColor: "#ffffff",
        logo: "/demo/logo.svg",
        title: "Casa Nova Imóveis",
        subtitle: "",
        description: "Um link compartilhado por Casa Nova Imóveis",
        cover: null,
      });
    }
    const nf = ogContent({ state: "not_found" }, "pt-BR", t);
    expect(nf.kind).toBe("branding");
    expect(nf.cover).toBeNull();
    expect(nf.brandName).toBe("");
  });
  it("a new price is a new image version", () => {
    const a = ogContent({ state: "open", answer: listingAnswer(doc), hostKind: "service" }, "pt-BR", t);
    const b = ogContent({ state: "open", answer: listingAnswer({ ...doc, price: 1200000 }), hostKind: "service" }, "pt-BR", t);
    expect(ogVersion(a)).not.toBe(ogVersion(b));
    expect(ogVersion(a)).toBe(ogVersion({ ...a }));
  });
  it("keeps only what the bundled font draws, and clips long titles at a word", () => {
    expect(drawable("Casa 🏠 com piscina — ótima ✨")).toBe("Casa com piscina — ótima");
    expect(clip("Apartamento amplo com varanda gourmet e vista para o parque", 30)).toBe("Apartamento amplo com varanda…");
  });
});

describe("markup", () => {
  it("escapes every value and keeps only safe links", () => {
    const card = listingCardView({ ...doc, title: '<script>alert("x")</script>', primaryImageUrl: "javascript:alert(1)" }, "pt-BR", t);
    const out = renderToStaticMarkup(createElement(ListingCard, { tenantId: "00000000-0000-4000-8000-000000000001", card, href: "/p/tok/l/l1" }));
    expect(out).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(out).not.toContain("<script");
    expect(out).not.toContain("javascript:");
    expect(safeImageUrl("tel:+5511999999999")).toBeNull();
    expect(safeUrl("javascript:alert(1)")).toBeNull();
    expect(safeUrl("//evil.example.com/x")).toBeNull();
    expect(safeUrl("https://img.example.com/a.jpg")).toBe("https://img.example.com/a.jpg");
    expect(safeUrl("/demo/a.svg")).toBe("/demo/a.svg");
  });
  it("a listing's page body renders what the answer has and nothing it lacks", () => {
    const view: ShareView = { answer: listingAnswer({ ...doc, condoFee: 850 }), locale: "pt-BR", t, base: "/p/tok", simulator: false };
    const out = renderToStaticMarkup(createElement(ShareBody, { view }));
    expect(out).toContain("Apartamento em Pinheiros");
    expect(out).toContain("Condomínio");
    expect(out).not.toContain("IPTU");
    expect(out).not.toContain("Simule o financiamento");
    expect(out).not.toContain("Localização");
  });
});

describe("brand colours", () => {
  it("text on the brand colour and the brand colour as text on white reach 4.5:1", () => {
    for (const c of ["#0f766e", "#ffd400", "#f5f5f5", "#1f6feb", "#000000", "#ff7a00", "#7fffd4"]) {
      expect(contrastRatio(c, textOn(c))).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(inkOnWhite(c), "#ffffff")).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("itinerary", () => {
  const stop = (id: string, lat: number, time: string | null) => ({
    order: 0,
    listingId: id,
    time,
    notes: null,
    listing: { id, location_latitude: lat, location_longitude: -46.68, location_neighborhood: "Pinheiros" },
  });
  it("follows the route's visiting order and opens it as directions", () => {
    const entity = {
      stops: [
        { ...stop("a", -23.56, "10:30"), order: 1 },
        { ...stop("b", -23.57, "09:30"), order: 2 },
      ],
      routeCache: { order: ["b", "a"], legs: [] },
      meetingPoint: { name: "Metrô", address: null, latitude: -23.5662, longitude: -46.6843 },
    };
    expect(orderedStops(entity).map((s) => s.listingId)).toEqual(["b", "a"]);
    const url = routeUrl([
      { label: "M", lat: -23.5662, lng: -46.6843, text: "" },
      { label: "1", lat: -23.57, lng: -46.68, text: "" },
      { label: "2", lat: null, lng: null, text: "Pinheiros, São Paulo" },
    ])!;
    const q = new URL(url).searchParams;
    expect(url.startsWith("https://www.google.com/maps/dir/?")).toBe(true);
    expect(q.get("origin")).toBe("-23.56620,-46.68430");
    expect(q.get("waypoints")).toBe("-23.57000,-46.68000");
    expect(q.get("destination")).toBe("Pinheiros, São Paulo");
  });
});

describe("messages", () => {
  it("the share pages say the same things in Portuguese, English and Spanish", async () => {
    const keys = async (l: string) => Object.keys((await import(`../../../messages/share/${l}.json`)).default).sort();
    expect(await keys("en")).toEqual(await keys("pt-BR"));
    expect(await keys("es")).toEqual(await keys("pt-BR"));
    for (const l of ["pt-BR", "en", "es"] as const) {
      const tr = translator(l);
      expect(tr("share.shortlistCount", { count: 2 })).toMatch(/2/);
      expect(tr("share.passwordThrottled", { minutes: 1 })).toMatch(/1/);
    }
  });
});
