/**
 * Transactions: opened by an offer's accept (offer.accepted carries transactionId) or directly,
 * read, listed, changed; payments and contracts attached; transaction.* events with the
 * transaction's shape; tenant and row isolation.
 */
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealContractsRoute from "../../../app/api/v1/crm/deals/[id]/contracts/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as verbRoute from "../../../app/api/v1/crm/offers/[id]/[verb]/route";
import * as offersRoute from "../../../app/api/v1/crm/offers/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as contractsRoute from "../../../app/api/v1/crm/transactions/[id]/contracts/route";
import * as paymentsRoute from "../../../app/api/v1/crm/transactions/[id]/payments/route";
import * as txRoute from "../../../app/api/v1/crm/transactions/[id]/route";
import * as txsRoute from "../../../app/api/v1/crm/transactions/route";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let broker: Awaited<ReturnType<typeof makeMember>>;
let dealId: string;
let ownerDealId: string;
let listingId: string;

const entityEvents = async (id: string) => (await getDb()).select().from(events).where(eq(events.entityId, id)).orderBy(asc(events.seq));
const act = (id: string, verb: string, body?: unknown, key = t.key) => call(verbRoute.POST, "POST", "/x", { key, params: { id, verb }, body });
const newOffer = async (body: Record<string, unknown> = {}) =>
  (await call(offersRoute.POST, "POST", "/x", { key: t.key, body: { dealId, amount: "900000", listingId, ...body } })).body;
const open = (body: unknown, key = t.key) => call(txsRoute.POST, "POST", "/x", { key, body });
const get = (id: string, key = t.key) => call(txRoute.GET, "GET", "/x", { key, params: { id } });
const patch = (id: string, body: unknown, key = t.key) => call(txRoute.PATCH, "PATCH", "/x", { key, params: { id }, body });
const pay = (id: string, body: unknown, key = t.key) => call(paymentsRoute.POST, "POST", "/x", { key, params: { id }, body });
const contract = (id: string, body: unknown, key = t.key) => call(contractsRoute.POST, "POST", "/x", { key, params: { id }, body });
const contractBody = (envelopeKey: string) => ({
  documentType: "purchase_agreement",
  envelopeKey,
  documents: [{ key: `${envelopeKey}-doc`, name: "Contrato.pdf" }],
  signers: [{ key: `${envelopeKey}-s1`, name: "Ana Souza", email: "ana@example.com" }],
});

/** The transaction as the API returns it, minus `id`, plus `transactionId` and `change`. */
function expectTransactionData(data: any, tx: any, change: Record<string, unknown>) {
  const { id, ...rest } = tx;
  expect(data).toEqual({ transactionId: id, ...rest, change });
}

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  broker = await makeMember(t, "broker", "restricted");
  dealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        title: "Compra",
        dealType: "sale",
        contacts: [
          { name: "Ana Souza", email: "ana@example.com", role: "buyer" },
          { name: "Rui Lima", email: "rui@example.com", role: "seller" },
        ],
        assignedToId: broker.userId,
      },
    })
  ).body.id;
  ownerDealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "Outra", dealType: "rental", contacts: [{ name: "Bia", email: "bia@example.com", role: "tenant" }] },
    })
  ).body.id;
  listingId = (await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() })).body.listings[0].id;
});

describe("offer accept opens a transaction", () => {
  it("writes transaction.created then offer.accepted with its transactionId; the transaction takes the offer's deal, listing, amount and the deal's contacts", async () => {
    const o = await newOffer();
    await act(o.id, "send");
    const a = await act(o.id, "accept");
    expect(a.status).toBe(200);
    expect(a.body.status).toBe("accepted");
    const [accepted] = (await entityEvents(o.id)).filter((e) => e.eventName === "offer.accepted");
    const transactionId = accepted.data.transactionId as string;
    expect(Object.keys(accepted.data).sort()).toEqual([
      "amount",
      "brokerId",
      "currency",
      "dealId",
      "dealType",
      "listingId",
      "occurredAt",
      "offerId",
      "source",
      "transactionId",
    ]);
    const tx = (await get(transactionId)).body;
    expect(tx).toMatchObject({
      dealId,
      listingId,
      offerId: o.id,
      dealType: "sale",
      status: "open",
      amount: "900000.00",
      currency: "BRL",
      payments: [],
      contracts: [],
    });
    expect(tx.parties).toEqual([
      { role: "buyer", name: "Ana Souza", email: "ana@example.com", taxId: null, contactId: expect.any(String) },
      { role: "seller", name: "Rui Lima", email: "rui@example.com", taxId: null, contactId: expect.any(String) },
    ]);
    const [created] = await entityEvents(transactionId);
    expect(created).toMatchObject({ eventName: "transaction.created", entityType: "transaction", userId: t.ownerId, old: null });
    expect(created.seq < accepted.seq).toBe(true);
    expectTransactionData(created.data, tx, { reason: "created" });
    // One transaction per offer.
    const again = await open({ offerId: o.id });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("transaction_exists");
  });

  it("{openTransaction: false} only accepts (no transactionId); the transaction can be opened later from the accepted offer", async () => {
    const o = await newOffer({ amount: "750000.5" });
    await act(o.id, "send");
    await act(o.id, "accept", { openTransaction: false });
    const [accepted] = (await entityEvents(o.id)).filter((e) => e.eventName === "offer.accepted");
    expect(accepted.data).not.toHaveProperty("transactionId");
    const r = await open({ offerId: o.id, parties: [{ role: "buyer", name: "Ana Souza", taxId: "123.456.789-09" }] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      offerId: o.id,
      dealId,
      amount: "750000.50",
      parties: [{ role: "buyer", name: "Ana Souza", email: null, taxId: "123.456.789-09", contactId: null }],
    });
  });

  it("refuses an offer that is not accepted (409 naming its state) and an offer of another deal (400)", async () => {
    const o = await newOffer();
    const r = await open({ offerId: o.id });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("offer_not_accepted");
    expect(r.body.error.message).toContain("draft");
    expect((await open({ offerId: o.id, dealId: ownerDealId })).status).toBe(400);
  });
});

describe("transactions REST", () => {
  it("opens directly from a deal, validates, changes with transaction.updated (old = previous), and final states stay final", async () => {
    expect((await open({ dealId: ownerDealId })).status).toBe(400); // amount required without offer
    expect((await open({ amount: "10" })).status).toBe(400);
    expect((await open({ dealId: ownerDealId, amount: "10", currency: "real" })).status).toBe(400);
    expect((await open({ dealId: ownerDealId, amount: "10", surprise: 1 })).status).toBe(400);
    const r = await open({ dealId: ownerDealId, amount: "3500", notes: "Aluguel" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ dealType: "rental", offerId: null, listingId: null, amount: "3500.00", status: "open" });
    const u = await patch(r.body.id, { amount: "3600", listingId });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ amount: "3600.00", listingId });
    const [, updated] = await entityEvents(r.body.id);
    expect(updated.eventName).toBe("transaction.updated");
    expectTransactionData(updated.data, u.body, { reason: "updated" });
    expect((updated.old as any).amount).toBe("3500.00");
    expect((await patch(r.body.id, {})).status).toBe(400);
    expect((await patch(r.body.id, { status: "closed" })).body.status).toBe("closed");
    const again = await patch(r.body.id, { notes: "x" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("transaction_final");
    expect((await pay(r.body.id, { method: "boleto", providerId: "b-closed", amount: "1", dueDate: "2026-12-01" })).status).toBe(409);
  });

  it("attaches payments and contracts (transaction.updated each), refuses duplicates and bad bodies, lists a deal's contracts", async () => {
    const tx = (await open({ dealId, amount: "500000" })).body;
    const p = await pay(tx.id, { method: "invoice", providerId: "inv-1", amount: "25000", dueDate: "2026-12-10" });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({
      transactionId: tx.id,
      method: "invoice",
      providerId: "inv-1",
      amount: "25000.00",
      dueDate: "2026-12-10",
      status: "pending",
      transferStatus: null,
      paidAt: null,
    });
    expect((await pay(tx.id, { method: "invoice", providerId: "inv-1", amount: "1", dueDate: "2026-12-10" })).body.error.code).toBe("payment_exists");
    expect((await pay(tx.id, { method: "pix", providerId: "x", amount: "1", dueDate: "2026-12-10" })).status).toBe(400);
    expect((await pay(tx.id, { method: "boleto", providerId: "x", amount: "1", dueDate: "10/12/2026" })).status).toBe(400);
    const c = await contract(tx.id, contractBody("env-rest-1"));
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      transactionId: tx.id,
      dealId,
      status: "pending",
      envelopeKey: "env-rest-1",
      signedDocumentId: null,
      documents: [{ key: "env-rest-1-doc", name: "Contrato.pdf", uploadedAt: null, closedAt: null }],
      signers: [{ key: "env-rest-1-s1", name: "Ana Souza", email: "ana@example.com", status: "pending", signedAt: null, refusedAt: null }],
    });
    expect((await contract(tx.id, contractBody("env-rest-1"))).body.error.code).toBe("contract_exists");
    expect((await contract(tx.id, { ...contractBody("env-rest-2"), documents: [] })).status).toBe(400);
    expect(
      (
        await contract(tx.id, {
          ...contractBody("env-rest-3"),
          signers: [
            { key: "a", name: "A", email: "a@x.com" },
            { key: "a", name: "B", email: "b@x.com" },
          ],
        })
      ).status,
    ).toBe(400);
    const evs = await entityEvents(tx.id);
    expect(evs.map((e) => [e.eventName, (e.data as any).change])).toEqual([
      ["transaction.created", { reason: "created" }],
      ["transaction.updated", { reason: "payment_added", paymentId: p.body.id }],
      ["transaction.updated", { reason: "contract_added", contractId: c.body.id }],
    ]);
    const full = (await get(tx.id)).body;
    expect(full.payments).toEqual([p.body]);
    expect(full.contracts).toEqual([c.body]);
    const dc = await call(dealContractsRoute.POST, "POST", "/x", { key: t.key, params: { id: dealId }, body: contractBody("env-deal-1") });
    expect(dc.status).toBe(201);
    expect(dc.body.transactionId).toBeNull();
    const list = await call(dealContractsRoute.GET, "GET", "/x", { key: t.key, params: { id: dealId } });
    expect(list.body.items.map((x: any) => x.envelopeKey)).toEqual(expect.arrayContaining(["env-rest-1", "env-deal-1"]));
  });

  it("another tenant's key sees and changes nothing; a broker sees only transactions of its deals", async () => {
    const tx = (await open({ dealId, amount: "1000" })).body;
    const own = (await open({ dealId: ownerDealId, amount: "2000" })).body;
    expect((await get(tx.id, other.key)).status).toBe(404);
    expect((await patch(tx.id, { notes: "hack" }, other.key)).status).toBe(404);
    expect((await pay(tx.id, { method: "boleto", providerId: "hack", amount: "1", dueDate: "2026-12-01" }, other.key)).status).toBe(404);
    expect((await contract(tx.id, contractBody("env-hack"), other.key)).status).toBe(404);
    expect((await call(txsRoute.GET, "GET", "/x", { key: other.key })).body.total).toBe(0);
    expect((await open({ dealId, amount: "1" }, other.key)).status).toBe(400);
    expect((await get(tx.id)).body.notes).toBeNull();
    // Broker (restricted): its deal's transactions only.
    expect((await get(tx.id, broker.key)).status).toBe(200);
    expect((await get(own.id, broker.key)).status).toBe(404);
    const mine = await call(txsRoute.GET, "GET", "/x", { key: broker.key, query: { pageSize: "100" } });
    expect(mine.body.items.every((x: any) => x.dealId === dealId)).toBe(true);
    const byDeal = await call(txsRoute.GET, "GET", "/x", { key: t.key, query: { dealId: ownerDealId } });
    expect(byDeal.body.items.every((x: any) => x.dealId === ownerDealId)).toBe(true);
    expect((await call(txsRoute.GET, "GET", "/x", { key: t.key, query: { status: "nope" } })).status).toBe(400);
    expect((await call(txRoute.GET, "GET", "/x", { key: t.key, params: { id: "not-a-uuid" } })).status).toBe(404);
  });
});
