import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { E2E_OPERATOR_TOKEN } from "./constants";

/**
 * An external site on another origin builds its page from `/api/sites` alone: the browser's CORS
 * checks (including the preflight of a JSON POST) must pass, and the answers carry no credentials.
 */
test("a page on another origin resolves a site through /api/sites in the browser", async ({ page, request, baseURL }) => {
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Imobiliária Externa", owner: { name: "Owner", email: "owner@externa.example.com" } },
  });
  expect(tenant.status()).toBe(201);
  const key = (await tenant.json()).apiKey as string;
  const site = await request.post("/api/v1/sites", {
    headers: { authorization: `Bearer ${key}` },
    data: {
      name: "Site externo",
      domain: "externa.localhost",
      published: true,
      configuration: { siteConfiguration: { brand: { name: "Externa", primaryColor: "#0f766e" } } },
    },
  });
  expect(site.status()).toBe(201);
  const siteId = (await site.json()).id as string;

  // The external site: a page served from 127.0.0.1 (another origin than localhost) that calls the API.
  const api = baseURL!;
  const html = `<!doctype html><html lang="pt-BR"><head><title>Externa</title></head><body><h1 id="name">…</h1><p id="langs"></p><p id="preflight"></p>
<script>
(async () => {
  const r = await fetch(${JSON.stringify(api)} + "/api/sites/resolve?domain=externa.localhost");
  const site = await r.json();
  document.getElementById("name").textContent = site.configuration.siteConfiguration.brand.name;
  document.getElementById("langs").textContent = site.tenantConfig.supportedLanguages.join(",");
  const cfg = await fetch(${JSON.stringify(api)} + "/api/sites/" + site.id + "/public-config", { headers: { "Content-Type": "application/json" } });
  document.getElementById("preflight").textContent = String(cfg.status);
})().catch((e) => { document.getElementById("name").textContent = "failed: " + e; });
</script></body></html>`;
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await expect(page.locator("#name")).toHaveText("Externa");
    await expect(page.locator("#langs")).toHaveText("pt-BR");
    // A request with Content-Type: application/json is preflighted by the browser: it passed.
    await expect(page.locator("#preflight")).toHaveText("200");
  } finally {
    server.close();
  }
  const direct = await request.get(`/api/sites/${siteId}/public-config`);
  expect(direct.headers()["access-control-allow-origin"]).toBe("*");
  expect(direct.headers()["cache-control"]).toBe("public, max-age=60, stale-while-revalidate=300");
});
