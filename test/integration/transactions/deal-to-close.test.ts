/**
 * "Done" for the deal's life after the lead: a lead becomes a deal, an offer is sent and accepted
 * (opening the transaction), a contract is signed and an invoice paid through provider
 * notifications posted over HTTP, and the tenant's webhook receiver (a real server on 127.0.0.1)
 * gets every step as the spec's events, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as verbRoute from "../../../app/api/v1/crm/offers/[id]/[verb]/route";
import * as offersRoute from "../../../app/api/v1/crm/offers/route";
import * as contractsRoute from "../../../app/api/v1/crm/transactions/[id]/contracts/route";
import * as paymentsRoute from "../../../app/api/v1/crm/transactions/[id]/payments/route";
import * as txRoute from "../../../app/api/v1/crm/transactions/[id]/route";
import * as txsRoute from "../../../app/api/v1/crm/transactions/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import * as leadRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import { getDb } from "../../../db/client";
import { deliverDueEvents } from "../../../lib/event-delivery/deliver";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { esign, invoice, makeProvider, processNotifications, providerPost, startReceiverServer } from "../../helpers/providers";
import { startReceiver } from "../../helpers/receiver";

let t: TestTenant;
let hooks: Awaited<ReturnType<typeof startReceiver>>;
let inbound: Awaited<ReturnType<typeof startReceiverServer>>;

beforeAll(async () => {
  t = await makeTenant();
  hooks = await startReceiver();
  inbound = await startReceiverServer();
});
afterAll(async () => {
  await hooks.close();
  await inbound.close();
});

describe("lead → offer → transaction → signed contract → paid invoice", () => {
  it("each step reaches the integrator as the spec's events", async () => {
    const subscribed = ["offer.created", "offer.sent_to_client", "offer.accepted", "transaction.created", "transaction.updated", "contract.signed"];
    expect((await call(webhooksRoute.PUT, "PUT", "/x", { key: t.key, body: { url: hooks.url, events: subscribed, hmac: true, bearer: false } })).status).toBe(
      200,
    );

    const channel = (await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Portal", kind: "portal" } })).body;
    const lead = await send(
      leadRoute.POST,
      new Request(`http://localhost/api/webhooks/channels/${channel.pathToken}?sync=deal`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Carla Compradora",
          email: "carla@example.com",
          phone: "11 97654-3210",
          businessType: "sale",
          originLeadId: "lead-close-1",
        }),
      }),
      { pathToken: channel.pathToken },
    );
    const dealId = (await lead.json()).dealId as string;
    expect(dealId).toBeTruthy();

    const offer = (await call(offersRoute.POST, "POST", "/x", { key: t.key, body: { dealId, amount: "820000" } })).body;
    await call(verbRoute.POST, "POST", "/x", { key: t.key, params: { id: offer.id, verb: "send" }, body: {} });
    await call(verbRoute.POST, "POST", "/x", { key: t.key, params: { id: offer.id, verb: "accept" } });

    const esignProvider = await makeProvider(t, "esignature");
    const payProvider = await makeProvider(t, "payment");
    const txList = await call(txsRoute.GET, "GET", "/x", { key: t.key, query: { dealId } });
    const transaction = txList.body.items[0];
    expect(transaction).toMatchObject({ offerId: offer.id, amount: "820000.00", parties: [expect.objectContaining({ name: "Carla Compradora" })] });

    const contract = (
      await call(contractsRoute.POST, "POST", "/x", {
        key: t.key,
        params: { id: transaction.id },
        body: {
          documentType: "purchase_agreement",
          envelopeKey: "env-close",
          documents: [{ key: "doc-close", name: "Contrato.pdf" }],
          signers: [{ key: "buyer", name: "Carla Compradora", email: "carla@example.com" }],
        },
      })
    ).body;
    const payment = (
      await call(paymentsRoute.POST, "POST", "/x", {
        key: t.key,
        params: { id: transaction.id },
        body: { method: "invoice", providerId: "pix-close", amount: "82000", dueDate: "2026-12-15" },
      })
    ).body;

    expect((await providerPost(inbound.url, esignProvider, esign("sign", "env-close", { signer: "buyer" }))).status).toBe(200);
    expect((await providerPost(inbound.url, payProvider, invoice("pix-close", "paid"), "bearer")).status).toBe(200);
    await processNotifications();

    const done = (await call(txRoute.GET, "GET", "/x", { key: t.key, params: { id: transaction.id } })).body;
    expect(done.contracts[0]).toMatchObject({ id: contract.id, status: "signed", signedDocumentId: expect.any(String) });
    expect(done.payments[0]).toMatchObject({ id: payment.id, status: "paid" });

    for (let i = 0; i < 20 && hooks.received.length < 9; i++) await deliverDueEvents(await getDb(), { retrySeconds: 0 });
    const got = hooks.received.map((r) => [r.json.eventName, r.json.data.data.change?.reason ?? null]);
    expect(got).toEqual([
      ["offer.created", null],
      ["offer.sent_to_client", null],
      ["transaction.created", "created"],
      ["offer.accepted", null],
      ["transaction.updated", "contract_added"],
      ["transaction.updated", "payment_added"],
      ["contract.signed", null],
      ["transaction.updated", "contract_updated"],
      ["transaction.updated", "payment_updated"],
    ]);
    const accepted = hooks.received[3].json;
    expect(accepted.data.data.transactionId).toBe(transaction.id);
    const signed = hooks.received.find((r) => r.json.eventName === "contract.signed")!.json;
    expect(signed.data).toMatchObject({ entityType: "contract", entityId: contract.id, userId: null });
    expect(signed.data.data).toMatchObject({
      contractId: contract.id,
      transactionId: transaction.id,
      dealId,
      entityType: "transaction",
      entityId: transaction.id,
      envelopeId: "env-close",
      signedDocumentId: done.contracts[0].signedDocumentId,
    });
    expect(hooks.received.every((r) => r.headers["x-webhook-signature"])).toBe(true);
  });
});
