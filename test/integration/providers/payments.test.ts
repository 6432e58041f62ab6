/**
 * Provider receivers (settings, authentication on the raw body, malformed payloads kept for
 * inspection) and payment notifications: matched by provider id, forward-only, idempotent,
 * out-of-order safe, tenant-scoped, with transaction.updated.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as txPaymentsRoute from "../../../app/api/v1/crm/transactions/[id]/payments/route";
import * as txRoute from "../../../app/api/v1/crm/transactions/[id]/route";
import * as txsRoute from "../../../app/api/v1/crm/transactions/route";
import * as notificationsRoute from "../../../app/api/v1/settings/providers/[id]/notifications/route";
import * as providerRoute from "../../../app/api/v1/settings/providers/[id]/route";
import * as providersRoute from "../../../app/api/v1/settings/providers/route";
import { getDb } from "../../../db/client";
import { events, providerNotifications, providerSettings } from "../../../db/schema";
import { MAX_ATTEMPTS } from "../../../lib/providers/process";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import {
  boleto,
  hmac,
  invoice,
  makeProvider,
  notify,
  processNotifications,
  providerPost,
  startReceiverServer,
  type TestProvider,
} from "../../helpers/providers";

let a: TestTenant;
let b: TestTenant;
let payA: TestProvider;
let payB: TestProvider;
let server: Awaited<ReturnType<typeof startReceiverServer>>;

async function openTx(t: TestTenant) {
  const dealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "Compra", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] },
    })
  ).body.id;
  return (await call(txsRoute.POST, "POST", "/x", { key: t.key, body: { dealId, amount: "600000" } })).body;
}
const addPayment = (t: TestTenant, txId: string, method: string, providerId: string) =>
  call(txPaymentsRoute.POST, "POST", "/x", { key: t.key, params: { id: txId }, body: { method, providerId, amount: "15000", dueDate: "2026-12-10" } });
const getTx = async (t: TestTenant, id: string) => (await call(txRoute.GET, "GET", "/x", { key: t.key, params: { id } })).body;
const txEvents = async (id: string) => (await getDb()).select().from(events).where(eq(events.entityId, id)).orderBy(asc(events.seq));
const notifications = (t: TestTenant, p: TestProvider, query: Record<string, string> = {}) =>
  call(notificationsRoute.GET, "GET", "/x", { key: t.key, params: { id: p.id }, query });

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  payA = await makeProvider(a, "payment");
  payB = await makeProvider(b, "payment");
  server = await startReceiverServer();
});
afterAll(() => server.close());

describe("provider settings", () => {
  it("creates a receiver (secret once), lists and reads it without the secret, admin only, tenant-scoped, deletes it", async () => {
    const r = await call(providersRoute.POST, "POST", "http://crm.example.com/api/v1/settings/providers", {
      key: a.key,
      body: { kind: "esignature", name: "Assinaturas" },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["createdAt", "id", "kind", "name", "receiverUrl", "secret", "signatureHeader"]);
    expect(r.body.receiverUrl).toMatch(/^http:\/\/crm\.example\.com\/api\/webhooks\/providers\/prv_[A-Za-z0-9_-]{32}$/);
    expect(r.body.secret).toMatch(/^prvsec_/);
    const [row] = await (await getDb()).select().from(providerSettings).where(eq(providerSettings.id, r.body.id));
    expect(row.secret).not.toContain(r.body.secret);
    const read = await call(providerRoute.GET, "GET", "/x", { key: a.key, params: { id: r.body.id } });
    expect(read.body).not.toHaveProperty("secret");
    expect(read.body.receiverUrl.split("/").pop()).toBe(r.body.receiverUrl.split("/").pop());
    const list = await call(providersRoute.GET, "GET", "/x", { key: a.key });
    expect(list.body.items.map((p: any) => p.id)).toContain(r.body.id);
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret);
    expect((await call(providersRoute.POST, "POST", "/x", { key: a.key, body: { kind: "fax", name: "x" } })).status).toBe(400);
    expect((await call(providersRoute.POST, "POST", "/x", { key: a.key, body: { kind: "payment" } })).status).toBe(400);
    const broker = await makeMember(a, "broker", "broad");
    expect((await call(providersRoute.GET, "GET", "/x", { key: broker.key })).status).toBe(403);
    expect((await call(providersRoute.POST, "POST", "/x", { key: broker.key, body: { kind: "payment", name: "x" } })).status).toBe(403);
    expect((await call(providerRoute.GET, "GET", "/x", { key: b.key, params: { id: r.body.id } })).status).toBe(404);
    expect((await call(providerRoute.DELETE, "DELETE", "/x", { key: b.key, params: { id: r.body.id } })).status).toBe(404);
    expect((await notifications(b, { id: r.body.id } as TestProvider)).status).toBe(404);
    expect((await call(providersRoute.GET, "GET", "/x", { key: b.key })).body.items.map((p: any) => p.id)).not.toContain(r.body.id);
    const token = r.body.receiverUrl.split("/").pop();
    const p = { id: r.body.id, token, secret: r.body.secret, receiverUrl: r.body.receiverUrl };
    expect((await notify(p, { event: "cancel", data: { envelope: { key: "e" } } })).status).toBe(200);
    expect((await call(providerRoute.DELETE, "DELETE", "/x", { key: a.key, params: { id: r.body.id } })).status).toBe(204);
    expect((await notify(p, { event: "cancel", data: { envelope: { key: "e" } } })).status).toBe(404);
  });
});

describe("POST /api/webhooks/providers/{pathToken}: authentication and shape", () => {
  it("unknown token 404, bad or missing signature 401 (nothing stored), HMAC with or without sha256= and Bearer accepted over real HTTP", async () => {
    const db = await getDb();
    const count = async () => (await db.select().from(providerNotifications).where(eq(providerNotifications.providerId, payA.id))).length;
    const before = await count();
    const body = boleto("auth-1", "created");
    expect((await notify({ ...payA, token: `prv_${"A".repeat(32)}` }, body)).status).toBe(404);
    expect((await notify({ ...payA, token: "../etc" }, body)).status).toBe(404);
    expect((await notify(payA, body, { unsigned: true })).status).toBe(401);
    expect((await notify(payA, body, { headers: { "x-signature": hmac("wrong", JSON.stringify(body)) } })).status).toBe(401);
    expect((await notify(payA, body, { unsigned: true, headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    // Signed bytes differ from the sent bytes (re-serialized with spaces): refused.
    const raw = JSON.stringify(body, null, 1);
    expect((await notify(payA, body, { raw, headers: { "x-signature": hmac(payA.secret, JSON.stringify(body)) } })).status).toBe(401);
    // Tenant B's secret on tenant A's token.
    expect((await notify({ ...payA, secret: payB.secret }, body)).status).toBe(401);
    expect(await count()).toBe(before);

    for (const auth of ["hmac", "prefixed", "bearer"] as const) {
      const r = await providerPost(server.url, payA, body, auth);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, id: expect.any(String) });
    }
    // The exact bytes are what is verified: an uppercase hex signature of the same bytes is fine.
    expect((await notify(payA, body, { headers: { "x-signature": `SHA256=${hmac(payA.secret, JSON.stringify(body)).toUpperCase()}` } })).status).toBe(200);
    expect(await count()).toBe(before + 4);
  });

  it("a configured signature header is the one read", async () => {
    const p = await makeProvider(a, "payment", { signatureHeader: "X-Provider-Hmac" });
    const body = boleto("hdr-1", "created");
    expect((await notify(p, body)).status).toBe(401);
    expect((await notify(p, body, { unsigned: true, headers: { "x-provider-hmac": hmac(p.secret, JSON.stringify(body)) } })).status).toBe(200);
  });

  it("malformed payloads are 400, stored as malformed for inspection, and change nothing", async () => {
    const tx = await openTx(a);
    await addPayment(a, tx.id, "boleto", "mal-1");
    const bad = [
      "{not json",
      JSON.stringify({ event: { log: { type: "boleto" } } }),
      JSON.stringify({ event: { log: { type: "transfer", transfer: { id: "mal-1", status: "paid" } } } }),
      JSON.stringify({ event: { log: { type: "boleto", boleto: { id: "mal-1" } } } }),
      JSON.stringify([1, 2]),
    ];
    for (const raw of bad) {
      const r = await notify(payA, null, { raw });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("malformed_notification");
    }
    const r = await notify(payA, null, { raw: bad[3] });
    expect(r.body.error.message).toContain("event.log.boleto.status");
    await processNotifications();
    const list = await notifications(a, payA, { status: "malformed" });
    expect(list.body.items.length).toBeGreaterThanOrEqual(bad.length);
    expect(list.body.items.map((n: any) => n.body)).toEqual(expect.arrayContaining(bad));
    expect(list.body.items.every((n: any) => n.error && n.outcome === null)).toBe(true);
    expect((await getTx(a, tx.id)).payments[0].status).toBe("pending");
    expect((await txEvents(tx.id)).map((e) => e.eventName)).toEqual(["transaction.created", "transaction.updated"]);
  });
});

describe("payment notifications", () => {
  it("boleto paid: stored before the 200, then the payment is paid and transaction.updated carries the transaction with change payment_updated", async () => {
    const tx = await openTx(a);
    const p = (await addPayment(a, tx.id, "boleto", "bol-100")).body;
    const res = await providerPost(server.url, payA, boleto("bol-100", "paid"));
    expect(res.status).toBe(200);
    const [stored] = await (await getDb()).select().from(providerNotifications).where(eq(providerNotifications.id, res.body.id));
    expect(stored).toMatchObject({ status: "received", event: "boleto.paid", subjectKey: "boleto:bol-100", tenantId: a.tenantId });
    expect((await getTx(a, tx.id)).payments[0].status).toBe("pending");

    await processNotifications();
    const after = await getTx(a, tx.id);
    expect(after.payments[0]).toMatchObject({ id: p.id, status: "paid", paidAt: "2026-12-05T14:03:00.000Z", paidAmount: "15000.00", transferStatus: null });
    const ev = (await txEvents(tx.id)).at(-1)!;
    expect(ev).toMatchObject({ eventName: "transaction.updated", entityType: "transaction", entityId: tx.id, userId: null });
    const { id, ...rest } = after;
    expect(ev.data).toEqual({ transactionId: id, ...rest, change: { reason: "payment_updated", paymentId: p.id } });
    expect((ev.old as any).payments[0].status).toBe("pending");
    const log = (await notifications(a, payA)).body.items.find((n: any) => n.id === res.body.id);
    expect(log).toMatchObject({
      status: "processed",
      outcome: "payment_updated",
      effects: {
        transactionId: tx.id,
        paymentId: p.id,
        from: { status: "pending", transferStatus: null },
        to: { status: "paid", transferStatus: null },
        events: ["transaction.updated"],
      },
    });
  });

  it("the same notification twice changes nothing the second time (one event)", async () => {
    const tx = await openTx(a);
    await addPayment(a, tx.id, "invoice", "inv-200");
    await notify(payA, invoice("inv-200", "paid"));
    await notify(payA, invoice("inv-200", "paid"));
    await processNotifications();
    await notify(payA, invoice("inv-200", "paid"));
    await processNotifications();
    expect((await getTx(a, tx.id)).payments[0]).toMatchObject({ status: "paid", paidAmount: "2500.50", paidAt: "2026-12-06T10:00:00.000Z" });
    expect((await txEvents(tx.id)).filter((e) => (e.data as any).change.reason === "payment_updated")).toHaveLength(1);
    const outcomes = (await notifications(a, payA)).body.items.filter((n: any) => n.subjectKey === "invoice:inv-200").map((n: any) => n.outcome);
    expect(outcomes.sort()).toEqual(["no_change", "no_change", "payment_updated"]);
  });

  it("reverse order never regresses: paid then expired/cancelled stays paid; transfer done then processing stays done; a late payment of an expired slip counts", async () => {
    const tx = await openTx(a);
    await addPayment(a, tx.id, "boleto", "bol-300");
    await notify(payA, boleto("bol-300", "paid"));
    await processNotifications();
    await notify(payA, boleto("bol-300", "expired"));
    await notify(payA, boleto("bol-300", "cancelled"));
    await notify(payA, boleto("bol-300", "transfer_done"));
    await processNotifications();
    await notify(payA, boleto("bol-300", "transfer_processing"));
    await notify(payA, boleto("bol-300", "transfer_failed"));
    await processNotifications();
    expect((await getTx(a, tx.id)).payments[0]).toMatchObject({ status: "paid", transferStatus: "done" });
    expect((await txEvents(tx.id)).filter((e) => (e.data as any).change.reason === "payment_updated")).toHaveLength(2);

    await addPayment(a, tx.id, "boleto", "bol-301");
    await notify(payA, boleto("bol-301", "EXPIRED"));
    await processNotifications();
    await notify(payA, boleto("bol-301", "paid"));
    await processNotifications();
    await notify(payA, boleto("bol-301", "expired"));
    await processNotifications();
    expect((await getTx(a, tx.id)).payments[1].status).toBe("paid");

    await addPayment(a, tx.id, "boleto", "bol-302");
    await notify(payA, boleto("bol-302", "canceled"));
    await notify(payA, boleto("bol-302", "expired"));
    await notify(payA, boleto("bol-302", "registered"));
    await notify(payA, boleto("bol-302", "mystery"));
    await processNotifications();
    expect((await getTx(a, tx.id)).payments[2].status).toBe("cancelled");
    const outcomes = (await notifications(a, payA)).body.items.filter((n: any) => n.subjectKey === "boleto:bol-302").map((n: any) => n.outcome);
    expect(outcomes.sort()).toEqual(["no_change", "no_change", "payment_updated", "unsupported_status"]);
  });

  it("two tenants: tenant A's token never touches tenant B's payment with the same provider id", async () => {
    const txA = await openTx(a);
    const txB = await openTx(b);
    await addPayment(a, txA.id, "boleto", "shared-1");
    await addPayment(b, txB.id, "boleto", "shared-1");
    await addPayment(b, txB.id, "boleto", "only-b");
    await notify(payA, boleto("shared-1", "paid"));
    await notify(payA, boleto("only-b", "paid"));
    await processNotifications();
    expect((await getTx(a, txA.id)).payments[0].status).toBe("paid");
    expect((await getTx(b, txB.id)).payments.map((p: any) => p.status)).toEqual(["pending", "pending"]);
    expect((await txEvents(txB.id)).filter((e) => e.eventName === "transaction.updated" && (e.data as any).change.reason === "payment_updated")).toHaveLength(
      0,
    );
    const miss = (await notifications(a, payA)).body.items.find((n: any) => n.subjectKey === "boleto:only-b");
    expect(miss.outcome).toBe("no_matching_payment");
    // Tenant B's log shows nothing of A's deliveries.
    expect((await notifications(b, payB)).body.items.filter((n: any) => n.subjectKey === "boleto:shared-1")).toHaveLength(0);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(providerNotifications)
        .where(and(eq(providerNotifications.tenantId, b.tenantId), eq(providerNotifications.providerId, payA.id))),
    ).toHaveLength(0);
  });

  it("a notification whose processing throws goes back to the queue and is marked failed after the last attempt; the others are applied", async () => {
    const db = await getDb();
    const tx = await openTx(a);
    await addPayment(a, tx.id, "boleto", "bol-after-broken");
    // Stored bodies passed the receiver's checks; this one is broken on purpose to make processing throw.
    const [broken] = await db
      .insert(providerNotifications)
      .values({ tenantId: a.tenantId, providerId: payA.id, event: "boleto.paid", body: "{broken" })
      .returning();
    await notify(payA, boleto("bol-after-broken", "paid"));
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      await processNotifications();
      const [row] = await db.select().from(providerNotifications).where(eq(providerNotifications.id, broken.id));
      expect(row).toMatchObject({ attempts: i, status: i < MAX_ATTEMPTS ? "received" : "failed" });
      expect(row.error).toBeTruthy();
    }
    expect((await getTx(a, tx.id)).payments[0].status).toBe("paid");
  });
});
