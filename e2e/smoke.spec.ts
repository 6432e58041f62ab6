import { expect, test } from "@playwright/test";
import { E2E_OPERATOR_TOKEN } from "./constants";

test("the home page of the production build loads", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ImobiCRM");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/api/docs");
});

test("the API reference renders the OpenAPI document", async ({ page }) => {
  await page.goto("/api/docs");
  await expect(page.locator(".swagger-ui").first()).toBeVisible();
  await expect(page.getByText("/api/v1/real-estate/listings").first()).toBeVisible({ timeout: 15_000 });
});

test("an operator creates a tenant and its key lists listings; another tenant's key sees none of them", async ({ request }) => {
  const mk = async (name: string) => {
    const res = await request.post("/api/admin/tenants", {
      headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
      data: { name, owner: { name: "Owner", email: `owner@${name.toLowerCase()}.example.com` } },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).apiKey as string;
  };
  const a = await mk("Alpha");
  const b = await mk("Beta");
  const created = await request.post("/api/v1/real-estate/properties", {
    headers: { authorization: `Bearer ${a}` },
    data: { property: { type: "apartment" }, listings: [{ title: "Apartamento em Pinheiros", type: "sale", price: "990000.00" }] },
  });
  expect(created.status()).toBe(201);
  const listA = await (await request.get("/api/v1/real-estate/listings", { headers: { authorization: `Bearer ${a}` } })).json();
  expect(listA.total).toBe(1);
  const listB = await (await request.get("/api/v1/real-estate/listings", { headers: { authorization: `Bearer ${b}` } })).json();
  expect(listB.total).toBe(0);
  const unauth = await request.get("/api/v1/real-estate/listings");
  expect(unauth.status()).toBe(401);
});

test("the health probes answer JSON without credentials, and wrong paths and methods answer JSON too", async ({ request }) => {
  const live = await request.get("/api/health");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  const ready = await request.get("/api/health/ready");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok", accepting: "ok", clientAddress: "ok" } });
  // Through the real Next router: an unknown path is a JSON 404, an unsupported method a JSON 405 with Allow.
  const unknown = await request.get("/api/v1/nothing-here");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");
  const wrongMethod = await request.put("/api/health", { data: {} });
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers().allow).toBe("GET, HEAD, OPTIONS");
  expect((await wrongMethod.json()).error.code).toBe("method_not_allowed");
});
