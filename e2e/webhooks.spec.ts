import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { E2E_OPERATOR_TOKEN } from "./constants";

test("the production server delivers a new event to the tenant's receiver within seconds", async ({ request }) => {
  const received: { headers: http.IncomingHttpHeaders; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const tenant = await request.post("/api/admin/tenants", {
      headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
      data: { name: "Webhook Realty", owner: { name: "Owner", email: "owner@webhook.example.com" } },
    });
    const { apiKey } = await tenant.json();
    const auth = { authorization: `Bearer ${apiKey}` };
    const put = await request.put("/api/v1/settings/webhooks", { headers: auth, data: { url, events: ["deal.created"], hmac: true, bearer: false } });
    expect(put.status()).toBe(200);
    const started = Date.now();
    const deal = await request.post("/api/v1/crm/deals", {
      headers: auth,
      data: { title: "Lead do site", dealType: "sale", contacts: [{ name: "Rita", phone: "11 98765-4321", role: "buyer" }] },
    });
    expect(deal.status()).toBe(201);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(received[0].body).toMatchObject({ eventName: "deal.created", data: { entityType: "deal", entityId: (await deal.json()).id } });
    expect(received[0].headers["x-webhook-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    const log = await (await request.get("/api/v1/settings/webhooks/deliveries", { headers: auth })).json();
    expect(log.items[0]).toMatchObject({ state: "delivered", eventName: "deal.created" });
  } finally {
    server.close();
  }
});
