import { expect, test } from "@playwright/test";
import { E2E_OPERATOR_TOKEN } from "./constants";

test("a portal's lead posted without sync becomes a deal in the background of the production server", async ({ request }) => {
  const tenant = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name: "Lead Realty", owner: { name: "Owner", email: "owner@leads.example.com" } },
  });
  const { apiKey } = await tenant.json();
  const auth = { authorization: `Bearer ${apiKey}` };
  const channel = await (await request.post("/api/v1/settings/marketing-channels", { headers: auth, data: { name: "Portal", kind: "portal" } })).json();
  const lead = { name: "Paula", phone: "11 91234-5678", originLeadId: "e2e-1", utmSource: "portal" };
  const posted = await request.post(`/api/webhooks/channels/${channel.pathToken}`, { data: lead });
  expect(posted.status()).toBe(202);
  expect(await posted.json()).toEqual({ ok: true, accepted: true });
  // The embedded runner picks the lead up at once; poll the lead log as support would.
  await expect
    .poll(async () => (await (await request.get(`/api/v1/settings/marketing-channels/${channel.id}/leads`, { headers: auth })).json()).items[0]?.status, {
      timeout: 15_000,
    })
    .toBe("processed");
  const deals = await (await request.get("/api/v1/crm/deals", { headers: auth })).json();
  expect(deals.items).toHaveLength(1);
  const again = await request.post(`/api/webhooks/channels/${channel.pathToken}`, { data: lead });
  expect(again.status()).toBe(200);
  expect((await again.json()).dealId).toBe(deals.items[0].id);
});
