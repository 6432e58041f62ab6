/**
 * Defects of the hardening issue, reproduced first: a deeply nested body answered 500 (or 400 on
 * one run and 500 on the next), `text/plain` bodies were parsed as JSON, lone surrogates were
 * stored as U+FFFD, and validation messages did not say where the problem was.
 */
import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as sitesRoute from "../../../app/api/v1/sites/route";
import { getDb } from "../../../db/client";
import { deals, properties } from "../../../db/schema";
import { MAX_JSON_DEPTH } from "../../../lib/http/read-json";
import { makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
beforeAll(async () => {
  t = await makeTenant();
});

const dealCount = async () => (await (await getDb()).select({ n: count() }).from(deals))[0].n;
const propertyCount = async () => (await (await getDb()).select({ n: count() }).from(properties))[0].n;

describe("nesting depth is bounded", () => {
  it("answers 400 naming the limit for a 2,000-deep body, every time, on every JSON write", async () => {
    const before = await dealCount();
    const deep = "[".repeat(2000) + "]".repeat(2000);
    for (let run = 0; run < 3; run++) {
      for (const [handler, name] of [
        [dealsRoute.POST, "deals"],
        [propertiesRoute.POST, "properties"],
      ] as const) {
        const res = await call(handler, "POST", "/x", { key: t.key, rawBody: deep });
        expect(res.status, name).toBe(400);
        expect(res.body.error.code).toBe("invalid_json");
        expect(res.body.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    }
    // 5,000 deep inside a field, and far beyond what a recursive parser survives.
    for (const depth of [5000, 200_000]) {
      const res = await call(dealsRoute.POST, "POST", "/x", { key: t.key, rawBody: `{"custom":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}` });
      expect(res.status, String(depth)).toBe(400);
      expect(res.body.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    }
    expect(await dealCount()).toBe(before);
  });

  it("counts brackets inside strings as text, and takes a body exactly at the limit to validation", async () => {
    const inString = await call(dealsRoute.POST, "POST", "/x", { key: t.key, rawBody: JSON.stringify({ title: "[".repeat(100) }) });
    expect(inString.body.error?.message ?? "").not.toContain("deeper than");
    const atLimit = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    const res = await call(dealsRoute.POST, "POST", "/x", { key: t.key, rawBody: atLimit });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request"); // past the depth check, refused by the schema
  });
});

describe("bodies must be JSON", () => {
  it("answers 415 for text/plain, form bodies and a missing Content-Type, and creates nothing", async () => {
    const before = await propertyCount();
    const body = JSON.stringify(propertyBody());
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", null]) {
      const headers = new Headers({ authorization: `Bearer ${t.key}` });
      if (type) headers.set("content-type", type);
      const res = await send(propertiesRoute.POST, new Request("http://localhost/x", { method: "POST", headers, body }));
      expect(res.status, String(type)).toBe(415);
      const json = await res.json();
      expect(json.error.code).toBe("unsupported_media_type");
      expect(json.error.message).toContain("Content-Type: application/json");
    }
    expect(await propertyCount()).toBe(before);
  });

  it("takes application/json with a charset and +json types", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody(), headers: { "content-type": type } });
      expect(res.status, type).toBe(201);
    }
  });
});

describe("text must be valid Unicode", () => {
  it("refuses a lone surrogate escape with 400 naming the field, and stores nothing", async () => {
    const before = await propertyCount();
    for (const s of ["\\ud800", "a\\udfffb", "\\udc00\\ud800"]) {
      const raw = JSON.stringify(propertyBody()).replace(/"title":"[^"]*"/, `"title":"${s}"`);
      expect(raw).toContain(s);
      const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, rawBody: raw });
      expect(res.status, s).toBe(400);
      expect(res.body.error.message).toMatch(/body field `property\.title`: contains a lone UTF-16 surrogate/);
    }
    expect(await propertyCount()).toBe(before);
  });

  it("keeps a proper surrogate pair (an emoji) as sent", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      rawBody: JSON.stringify(propertyBody()).replace(/"title":"[^"]*"/, `"title":"Casa \\ud83c\\udfe0"`),
    });
    expect(res.status).toBe(201);
    expect(res.body.property?.title ?? res.body.title ?? JSON.stringify(res.body)).toContain("Casa \u{1F3E0}");
  });

  it("refuses bytes that are not UTF-8 instead of replacing them", async () => {
    const bytes = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const headers = { authorization: `Bearer ${t.key}`, "content-type": "application/json" };
    const res = await send(dealsRoute.POST, new Request("http://localhost/x", { method: "POST", headers, body: bytes }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("not valid UTF-8");
  });
});

describe("validation messages say where the problem is and what to do", () => {
  it("names an unknown query parameter as a query parameter", async () => {
    const res = await call(listingsRoute.GET, "GET", "/x", { key: t.key, query: { pageSise: "5" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^query parameter `pageSise`: is not a known parameter; remove it/);
    expect(res.body.error.message).not.toContain("(body)");
    expect(res.body.error.issues).toEqual([expect.objectContaining({ location: "query", path: "pageSise" })]);
  });

  it("says a missing body field is required", async () => {
    const res = await call(sitesRoute.POST, "POST", "/x", { key: t.key, body: { domain: "missing-name.example.com" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("body field `name`: is required");
    expect(res.body.error.message).not.toContain("received undefined");
    expect(res.body.error.issues[0]).toMatchObject({ location: "body", path: "name" });
  });

  it("names an unknown body field", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: { ...propertyBody(), colour: "red" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("body field `colour`: is not a known field");
  });
});
