/**
 * E-signature notifications: upload, add_signer, sign, document_closed, refusal, cancel and
 * deadline move the contract and its signers forward only; contract.signed is written exactly
 * once per contract, with every field of spec 2 §6, after the signed document is in the deal's
 * documents: on the last sign or on document_closed, twice, reversed or concurrently.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealContractsRoute from "../../../app/api/v1/crm/deals/[id]/contracts/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as contractsRoute from "../../../app/api/v1/crm/transactions/[id]/contracts/route";
import * as txRoute from "../../../app/api/v1/crm/transactions/[id]/route";
import * as txsRoute from "../../../app/api/v1/crm/transactions/route";
import * as notificationsRoute from "../../../app/api/v1/settings/providers/[id]/notifications/route";
import { getDb } from "../../../db/client";
import { dealDocuments, events } from "../../../db/schema";
import { processProviderNotifications } from "../../../lib/providers/process";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { esign, makeProvider, notify, processNotifications, providerPost, startReceiverServer, type TestProvider } from "../../helpers/providers";

let a: TestTenant;
let b: TestTenant;
let signA: TestProvider;
let signB: TestProvider;
let server: Awaited<ReturnType<typeof startReceiverServer>>;

const SIGNED_FIELDS = [
  "contractId",
  "documentType",
  "dealId",
  "entityId",
  "entityType",
  "envelopeId",
  "listingId",
  "occurredAt",
  "signedDocumentId",
  "transactionId",
].sort();

async function openTx(t: TestTenant) {
  const dealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "Compra", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] },
    })
  ).body.id;
  return (await call(txsRoute.POST, "POST", "/x", { key: t.key, body: { dealId, amount: "600000" } })).body;
}
async function addContract(t: TestTenant, txId: string, envelopeKey: string, signers = ["s1", "s2"]) {
  const r = await call(contractsRoute.POST, "POST", "/x", {
    key: t.key,
    params: { id: txId },
    body: {
      documentType: "purchase_agreement",
      envelopeKey,
      documents: [{ key: `${envelopeKey}-doc`, name: "Contrato.pdf" }],
      signers: signers.map((k) => ({ key: k, name: `Pessoa ${k}`, email: `${k}@example.com` })),
    },
  });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body;
}
const getTx = async (t: TestTenant, id: string) => (await call(txRoute.GET, "GET", "/x", { key: t.key, params: { id } })).body;
const contractOf = async (t: TestTenant, txId: string, contractId: string) => (await getTx(t, txId)).contracts.find((c: any) => c.id === contractId);
const signedEvents = async (contractId: string) => (await getDb()).select().from(events).where(eq(events.entityId, contractId)).orderBy(asc(events.seq));
const outcomesOf = async (t: TestTenant, p: TestProvider, subjectPrefix: string) =>
  (await call(notificationsRoute.GET, "GET", "/x", { key: t.key, params: { id: p.id }, query: { pageSize: "100" } })).body.items
    .filter((n: any) => n.subjectKey?.startsWith(subjectPrefix))
    .map((n: any) => n.outcome);

function expectContractSigned(ev: any, contract: any, entity: { type: "transaction" | "deal"; id: string }) {
  expect(ev).toMatchObject({ eventName: "contract.signed", entityType: "contract", entityId: contract.id, userId: null });
  expect(Object.keys(ev.data).sort()).toEqual(SIGNED_FIELDS);
  expect(ev.data).toMatchObject({
    contractId: contract.id,
    transactionId: contract.transactionId,
    dealId: contract.dealId,
    listingId: contract.listingId,
    entityType: entity.type,
    entityId: entity.id,
    documentType: "purchase_agreement",
    envelopeId: contract.envelopeKey,
    signedDocumentId: contract.signedDocumentId,
  });
  expect(new Date(ev.data.occurredAt).toISOString()).toBe(ev.data.occurredAt);
}

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  signA = await makeProvider(a, "esignature");
  signB = await makeProvider(b, "esignature");
  server = await startReceiverServer();
});
afterAll(() => server.close());

describe("e-signature notifications", () => {
  it("upload → add_signer → sign → last sign: the contract moves forward, the signed document is stored, contract.signed once with every §6 field; document_closed afterwards changes nothing", async () => {
    const tx = await openTx(a);
    const c = await addContract(a, tx.id, "env-flow");
    const t0 = "2026-11-20T10:00:00.000Z";
    for (const [event, extra] of [
      ["upload", { timestamp: t0 }],
      ["add_signer", { signer: "s3" }],
      ["sign", { signer: "s1", timestamp: "2026-11-20T11:00:00.000Z" }],
    ] as const) {
      expect((await providerPost(server.url, signA, esign(event, "env-flow", extra))).status).toBe(200);
    }
    await processNotifications();
    let now = await contractOf(a, tx.id, c.id);
    expect(now.status).toBe("signing");
    expect(now.documents[0].uploadedAt).toBe(t0);
    expect(now.signers.map((s: any) => [s.key, s.status])).toEqual([
      ["s1", "signed"],
      ["s2", "pending"],
      ["s3", "pending"],
    ]);
    expect(now.signers[0].signedAt).toBe("2026-11-20T11:00:00.000Z");
    expect(await signedEvents(c.id)).toHaveLength(0);

    await notify(signA, esign("sign", "env-flow", { signer: "s2" }));
    await processNotifications();
    expect(await signedEvents(c.id)).toHaveLength(0); // s3 (added by the provider) has not signed
    const last = "2026-11-21T09:30:00.000Z";
    await notify(signA, esign("sign", "env-flow", { signer: "s3", timestamp: last }));
    await processNotifications();
    now = await contractOf(a, tx.id, c.id);
    expect(now).toMatchObject({ status: "signed", signedAt: last, signedDocumentId: expect.any(String) });
    const [doc] = await (await getDb()).select().from(dealDocuments).where(eq(dealDocuments.id, now.signedDocumentId));
    expect(doc).toMatchObject({ tenantId: a.tenantId, dealId: tx.dealId, kind: "signed_contract", name: "Contrato assinado.pdf", providerKey: "env-flow-doc" });
    const evs = await signedEvents(c.id);
    expect(evs).toHaveLength(1);
    expectContractSigned(evs[0], now, { type: "transaction", id: tx.id });
    expect(evs[0].data.occurredAt).toBe(last);

    await notify(signA, esign("document_closed", "env-flow"));
    await notify(signA, esign("sign", "env-flow", { signer: "s3" }));
    await notify(signA, esign("cancel", "env-flow"));
    await processNotifications();
    expect(await signedEvents(c.id)).toHaveLength(1);
    expect((await contractOf(a, tx.id, c.id)).status).toBe("signed");
    expect(await outcomesOf(a, signA, "envelope:env-flow")).toEqual([
      "no_change",
      "no_change",
      "no_change",
      "contract_signed",
      "contract_updated",
      "contract_updated",
      "contract_updated",
      "contract_updated",
    ]);
    // Each change of the contract was a transaction.updated with change contract_updated.
    const txEvs = (await (await getDb()).select().from(events).where(eq(events.entityId, tx.id))).filter(
      (e) => (e.data as any).change?.reason === "contract_updated",
    );
    expect(txEvs).toHaveLength(5);
  });

  it("document_closed signs every party, also when it arrives first (reversed order); later signs change nothing", async () => {
    const tx = await openTx(a);
    const c = await addContract(a, tx.id, "env-closed");
    await notify(signA, esign("document_closed", "env-closed"));
    await notify(signA, esign("sign", "env-closed", { signer: "s1" }));
    await notify(signA, esign("upload", "env-closed"));
    await processNotifications();
    const now = await contractOf(a, tx.id, c.id);
    expect(now.status).toBe("signed");
    expect(now.signers.every((s: any) => s.status === "signed")).toBe(true);
    expect(now.documents[0].closedAt).not.toBeNull();
    expect(now.documents[0].uploadedAt).toBeNull();
    const evs = await signedEvents(c.id);
    expect(evs).toHaveLength(1);
    expectContractSigned(evs[0], now, { type: "transaction", id: tx.id });
    // The same notification twice.
    await notify(signA, esign("document_closed", "env-closed"));
    await processNotifications();
    expect(await signedEvents(c.id)).toHaveLength(1);
    const docs = await (await getDb()).select().from(dealDocuments).where(eq(dealDocuments.dealId, tx.dealId));
    expect(docs.filter((d) => d.kind === "signed_contract")).toHaveLength(1);
  });

  it("a sign for an unknown signer changes nothing and says so", async () => {
    const tx = await openTx(a);
    const c = await addContract(a, tx.id, "env-unknown", ["s1"]);
    await notify(signA, esign("sign", "env-unknown", { signer: "intruder" }));
    await processNotifications();
    const now = await contractOf(a, tx.id, c.id);
    expect(now.status).toBe("pending");
    expect(now.signers).toEqual([expect.objectContaining({ key: "s1", status: "pending" })]);
    expect(await signedEvents(c.id)).toHaveLength(0);
    expect(await outcomesOf(a, signA, "envelope:env-unknown")).toEqual(["unknown_signer"]);
    const n = (await call(notificationsRoute.GET, "GET", "/x", { key: a.key, params: { id: signA.id } })).body.items.find(
      (x: any) => x.subjectKey === "envelope:env-unknown/signer:intruder",
    );
    expect(n.effects).toEqual({ contractId: c.id, transactionId: tx.id, signerKey: "intruder" });
  });

  it("refusal, cancel and deadline are final: no later sign or close makes the contract signed", async () => {
    const tx = await openTx(a);
    const refused = await addContract(a, tx.id, "env-refuse");
    const cancelled = await addContract(a, tx.id, "env-cancel", ["s1"]);
    const expired = await addContract(a, tx.id, "env-deadline", ["s1"]);
    await notify(signA, esign("refusal", "env-refuse", { signer: "s2" }));
    await notify(signA, esign("cancel", "env-cancel"));
    await notify(signA, esign("deadline", "env-deadline"));
    await processNotifications();
    for (const env of ["env-refuse", "env-cancel", "env-deadline"]) {
      await notify(signA, esign("sign", env, { signer: "s1" }));
      await notify(signA, esign("document_closed", env));
    }
    await processNotifications();
    const after = await getTx(a, tx.id);
    const by = (id: string) => after.contracts.find((x: any) => x.id === id);
    expect(by(refused.id).status).toBe("refused");
    expect(by(refused.id).signers.map((s: any) => s.status)).toEqual(["pending", "refused"]);
    expect(by(cancelled.id).status).toBe("cancelled");
    expect(by(expired.id).status).toBe("expired");
    for (const c of [refused, cancelled, expired]) expect(await signedEvents(c.id)).toHaveLength(0);
  });

  it("a deal's own contract: contract.signed names the deal (entityType deal, transactionId null); matched by document key without envelope", async () => {
    const tx = await openTx(a);
    const c = (
      await call(dealContractsRoute.POST, "POST", "/x", {
        key: a.key,
        params: { id: tx.dealId },
        body: {
          documentType: "purchase_agreement",
          envelopeKey: "env-deal",
          documents: [{ key: "deal-doc-9", name: "Exclusividade.pdf" }],
          signers: [{ key: "o1", name: "Dono", email: "o@example.com" }],
        },
      })
    ).body;
    await notify(signA, {
      event: "sign",
      data: {
        document: { key: "deal-doc-9", name: "Exclusividade assinada.pdf", url: "https://sign.example.com/d/9.pdf" },
        signer: { key: "o1", name: "Dono" },
      },
      timestamp: new Date().toISOString(),
    });
    await processNotifications();
    const list = (await call(dealContractsRoute.GET, "GET", "/x", { key: a.key, params: { id: tx.dealId } })).body.items;
    const now = list.find((x: any) => x.id === c.id);
    expect(now.status).toBe("signed");
    const [ev] = await signedEvents(c.id);
    expectContractSigned(ev, now, { type: "deal", id: tx.dealId });
    expect(ev.data.transactionId).toBeNull();
    const [doc] = await (await getDb()).select().from(dealDocuments).where(eq(dealDocuments.id, now.signedDocumentId));
    expect(doc).toMatchObject({ url: "https://sign.example.com/d/9.pdf", name: "Exclusividade assinada.pdf", providerKey: "deal-doc-9" });
  });

  it("two concurrent document_closed deliveries (over HTTP, processed by two workers at once) write one contract.signed", async () => {
    const tx = await openTx(a);
    const c = await addContract(a, tx.id, "env-race");
    const posts = await Promise.all([1, 2, 3].map(() => providerPost(server.url, signA, esign("document_closed", "env-race"))));
    expect(posts.map((p) => p.status)).toEqual([200, 200, 200]);
    const db = await getDb();
    await Promise.all([processProviderNotifications(db, 1), processProviderNotifications(db, 1), processProviderNotifications(db, 1)]);
    await processNotifications();
    expect(await signedEvents(c.id)).toHaveLength(1);
    expect((await outcomesOf(a, signA, "envelope:env-race")).sort()).toEqual(["contract_signed", "no_change", "no_change"]);
    const docs = await db.select().from(dealDocuments).where(eq(dealDocuments.dealId, tx.dealId));
    expect(docs.filter((d) => d.kind === "signed_contract")).toHaveLength(1);
  });

  it("two tenants with the same envelope key: tenant A's token signs only tenant A's contract", async () => {
    const txA = await openTx(a);
    const txB = await openTx(b);
    const cA = await addContract(a, txA.id, "env-shared", ["s1"]);
    const cB = await addContract(b, txB.id, "env-shared", ["s1"]);
    const onlyB = await addContract(b, txB.id, "env-only-b", ["s1"]);
    await notify(signA, esign("document_closed", "env-shared"));
    await notify(signA, esign("document_closed", "env-only-b"));
    await processNotifications();
    expect((await contractOf(a, txA.id, cA.id)).status).toBe("signed");
    expect((await contractOf(b, txB.id, cB.id)).status).toBe("pending");
    expect((await contractOf(b, txB.id, onlyB.id)).status).toBe("pending");
    expect(await signedEvents(cB.id)).toHaveLength(0);
    expect(await outcomesOf(a, signA, "envelope:env-only-b")).toEqual(["no_matching_contract"]);
    expect(await outcomesOf(b, signB, "envelope:")).toEqual([]);
  });

  it("malformed e-signature payloads are 400 and stored: no envelope or document, sign without signer", async () => {
    for (const body of [
      { event: "sign", data: {} },
      { event: "sign", data: { envelope: { key: "e" } } },
      { data: { envelope: { key: "e" } } },
      { event: "sign" },
    ]) {
      const r = await notify(signA, body);
      expect(r.status).toBe(400);
    }
    // An event outside the spec's list is stored and reported, not refused.
    expect((await notify(signA, { event: "auto_close", data: { envelope: { key: "env-flow" } } })).status).toBe(200);
    await processNotifications();
    expect(await outcomesOf(a, signA, "envelope:env-flow")).toContain("unsupported_event");
  });
});
