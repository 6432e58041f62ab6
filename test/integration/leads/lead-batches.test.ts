/**
 * Lead processing in batches (`processLeads`, what the `process-lead` job runs): a tenant's leads
 * share one transaction, each still processed exactly once, a person named by two leads of one
 * batch still becomes one contact, a bad lead fails alone, and tenants never mix.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import { getDb } from "../../../db/client";
import { contacts, deals, events, inboundLeads, type InboundLeadRow } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { onJobEvent, sendJobEvent } from "../../../lib/jobs/dispatch";
import { startEmbeddedRunner } from "../../../lib/jobs/embedded-runner";
import { leadReceived, processLeadsJob } from "../../../lib/leads/inbound/lead-job";
import { logger } from "../../../lib/log/logger";
import { contactWaves, processLeads } from "../../../lib/leads/inbound/process-batch";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let brokers: string[];

async function channel(owner: TestTenant, queue: string[]) {
  const res = await call(channelsRoute.POST, "POST", "/x", { key: owner.key, body: { name: "Portal", kind: "portal", queue } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; pathToken: string };
}

/** Posts the leads through the webhook route and returns their stored ids, in posting order. */
async function postAll(pathToken: string, bodies: Record<string, unknown>[]): Promise<string[]> {
  for (const body of bodies) {
    const req = new Request(`http://localhost/api/webhooks/channels/${pathToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect((await send(webhookRoute.POST, req, { pathToken })).status).toBe(202);
  }
  const db = await getDb();
  const origin = bodies.map((b) => String(b.originLeadId));
  const rows = await db.select().from(inboundLeads).where(inArray(inboundLeads.originLeadId, origin));
  return origin.map((o) => rows.find((r) => r.originLeadId === o)!.id);
}

const phone = (n: number) => `+55 11 9${String(70_000_000 + n)}`;

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  brokers = [(await makeMember(t, "broker")).userId, (await makeMember(t, "broker")).userId];
});

describe("processLeads", () => {
  it("makes one deal per lead in one pass, takes the queue in turns, and one contact for a person named twice", async () => {
    const c = await channel(t, brokers);
    const bodies: Record<string, unknown>[] = Array.from({ length: 12 }, (_, i) => ({
      contactName: `Lote ${i}`,
      phone: phone(i),
      originLeadId: `batch-a-${i}`,
    }));
    // The same person as lead 0, by phone; and as lead 1, by e-mail (lead 1's e-mail).
    bodies[1].email = "lote1@example.com";
    bodies[5] = { contactName: "Lote 0 de novo", phone: phone(0), originLeadId: "batch-a-5" };
    bodies[9] = { contactName: "Lote 1 por e-mail", email: "LOTE1@example.com", originLeadId: "batch-a-9" };
    const ids = await postAll(c.pathToken, bodies);

    const outcomes = await processLeads(await getDb(), ids);
    expect(outcomes.map((o) => o.status)).toEqual(Array(12).fill("processed"));
    const db = await getDb();
    const made = await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, c.id));
    expect(made).toHaveLength(12);
    // Round robin over two brokers: six each.
    expect(made.filter((d) => d.assignedToId === brokers[0])).toHaveLength(6);
    expect(made.filter((d) => d.assignedToId === brokers[1])).toHaveLength(6);
    const people = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.tenantId, t.tenantId), sql`${contacts.name} like 'Lote%'`));
    expect(people).toHaveLength(10);
    expect(people.filter((p) => p.phone === "+5511970000000")).toHaveLength(1);
    expect(people.filter((p) => p.email === "lote1@example.com")).toHaveLength(1);
    const rows = await db.select().from(inboundLeads).where(inArray(inboundLeads.id, ids));
    for (const r of rows) {
      expect(r.status).toBe("processed");
      expect(r.dealIds).toHaveLength(1);
      const names = (await db.select().from(events).where(eq(events.entityId, r.dealIds[0]))).map((e) => e.eventName).sort();
      expect(names).toEqual(["deal.attribution.tracked", "deal.created", "distribution.assigned"]);
    }

    // Again, and twice at once: nothing is claimable, nothing is written.
    const again = await Promise.all([processLeads(db, ids), processLeads(db, ids)]);
    expect(again.flat()).toEqual([]);
    expect(await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, c.id))).toHaveLength(12);
  });

  it("processes each lead once when two runs take the same leads at the same time", async () => {
    const c = await channel(t, brokers);
    const ids = await postAll(
      c.pathToken,
      Array.from({ length: 20 }, (_, i) => ({ contactName: `Corrida ${i}`, phone: phone(100 + i), originLeadId: `race-${i}` })),
    );
    const db = await getDb();
    const [a, b] = await Promise.all([processLeads(db, ids), processLeads(db, [...ids].reverse())]);
    expect(a.length + b.length).toBe(20);
    expect(await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, c.id))).toHaveLength(20);
  });

  it("fails a bad lead alone: the others of its batch are processed", async () => {
    const c = await channel(t, brokers);
    const ids = await postAll(
      c.pathToken,
      Array.from({ length: 5 }, (_, i) => ({ contactName: `Misto ${i}`, phone: phone(200 + i), originLeadId: `mixed-${i}` })),
    );
    const db = await getDb();
    // A stored lead the processing cannot read (its parsed form lost its attribution): the first,
    // so it fails while the others are still writing (they must not go on after the rollback).
    await db
      .update(inboundLeads)
      .set({ lead: { contactName: "Quebrado", businessType: "sale" } })
      .where(eq(inboundLeads.id, ids[0]));
    const outcomes = await processLeads(db, ids);
    const byId = new Map(outcomes.map((o) => [o.lead!.id, o]));
    expect(ids.map((id) => byId.get(id)!.status)).toEqual(["failed", "processed", "processed", "processed", "processed"]);
    expect(byId.get(ids[0])!.lead!.error).toBeTruthy();
    expect(await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, c.id))).toHaveLength(4);
  });

  it("fills a returning person's empty field once: two leads reaching the same contact by different keys keep the first CPF", async () => {
    const c = await channel(t, brokers);
    const db = await getDb();
    const [known] = await db.insert(contacts).values({ tenantId: t.tenantId, name: "Júlia", phone: "+5511970000500", email: "julia@example.com" }).returning();
    // No key in common between the two leads, so they are written side by side; both find Júlia.
    const ids = await postAll(c.pathToken, [
      { contactName: "Júlia", phone: phone(500), cpf: "529.982.247-25", originLeadId: "fill-1" },
      { contactName: "Júlia", email: "julia@example.com", cpf: "111.444.777-35", originLeadId: "fill-2" },
    ]);
    expect((await processLeads(db, ids)).map((o) => o.status)).toEqual(["processed", "processed"]);
    const [after] = await db.select().from(contacts).where(eq(contacts.id, known.id));
    expect(after.cpf).toBe("52998224725");
    expect(
      await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.tenantId, t.tenantId), eq(contacts.name, "Júlia"))),
    ).toHaveLength(1);
  });

  it("takes owner captures in the same run, one at a time, beside the deal leads", async () => {
    const res = await call(channelsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Captação", kind: "website", queue: brokers, destinations: { deal: true, listing: true } },
    });
    const c = res.body as { id: string; pathToken: string };
    const ids = await postAll(c.pathToken, [
      { contactName: "Comprador", phone: phone(600), originLeadId: "cap-1" },
      {
        destination: "listing",
        leadType: "seller_lead",
        name: "Dono",
        phone: phone(601),
        originLeadId: "cap-2",
        address: { street: "Rua Harmonia", number: "9", postalCode: "05435000", city: "São Paulo" },
      },
      { contactName: "Compradora", phone: phone(602), originLeadId: "cap-3" },
    ]);
    const db = await getDb();
    const outcomes = await processLeads(db, ids);
    expect(outcomes.map((o) => [o.lead!.originLeadId, o.status]).sort()).toEqual([
      ["cap-1", "processed"],
      ["cap-2", "processed"],
      ["cap-3", "processed"],
    ]);
    const rows = await db.select().from(inboundLeads).where(inArray(inboundLeads.id, ids));
    expect(rows.find((r) => r.originLeadId === "cap-2")).toMatchObject({ dealIds: [], listingId: expect.any(String) });
    expect(await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, c.id))).toHaveLength(2);
  });

  it("keeps tenants apart: each lead's deal and contact in its own tenant, the same phone two people", async () => {
    const mine = await channel(t, brokers);
    const theirs = await channel(other, []);
    const a = await postAll(mine.pathToken, [{ contactName: "Ana Daqui", phone: phone(300), originLeadId: "tenants-a" }]);
    const b = await postAll(theirs.pathToken, [{ contactName: "Ana Dali", phone: phone(300), originLeadId: "tenants-b" }]);
    const db = await getDb();
    expect((await processLeads(db, [...a, ...b])).map((o) => o.status)).toEqual(["processed", "processed"]);
    const [dealA] = await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, mine.id));
    const [dealB] = await db.select().from(deals).where(eq(deals.marketingChannelInstanceId, theirs.id));
    expect(dealA.tenantId).toBe(t.tenantId);
    expect(dealB.tenantId).toBe(other.tenantId);
    expect(dealB.assignedToId).toBeNull();
    const named = await db.select().from(contacts).where(eq(contacts.phone, "+5511970000300"));
    expect(named.map((p) => [p.tenantId, p.name]).sort()).toEqual(
      [
        [t.tenantId, "Ana Daqui"],
        [other.tenantId, "Ana Dali"],
      ].sort(),
    );
  });
});

describe("the embedded runner during a steady stream of leads", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
    resetConfigForTests();
  });

  it("processes while the stream goes on: events every 2 ms do not keep pushing the run back", async () => {
    Object.assign(process.env, { JOBS_RUNNER: "embedded" });
    resetConfigForTests();
    const c = await channel(t, brokers);
    const [id] = await postAll(c.pathToken, [{ contactName: "Fluxo", phone: phone(400), originLeadId: "stream-1" }]);
    const runner = startEmbeddedRunner();
    const db = await getDb();
    try {
      await new Promise((ok) => setTimeout(ok, 300)); // the runner's first scheduled cycles
      await db.update(inboundLeads).set({ status: "received" }).where(eq(inboundLeads.id, id)).returning();
      let status = "received";
      const until = Date.now() + 1500;
      // What a portal's burst looks like to the runner: a lead event every 2 ms, never a 10 ms gap.
      while (Date.now() < until && status !== "processed") {
        sendJobEvent(leadReceived, { leadId: id });
        await new Promise((ok) => setTimeout(ok, 2));
        [{ status }] = await db.select({ status: inboundLeads.status }).from(inboundLeads).where(eq(inboundLeads.id, id));
      }
      expect(status, "processed before the stream stopped").toBe("processed");
    } finally {
      await runner.stop();
    }
  });
});

describe("one run of the job", () => {
  it("drains every pending lead in batches of 50, not only the first batch", async () => {
    const c = await channel(t, brokers);
    const ids = await postAll(
      c.pathToken,
      Array.from({ length: 120 }, (_, i) => ({ contactName: `Fila ${i}`, phone: phone(900 + i), originLeadId: `drain-${i}` })),
    );
    const db = await getDb();
    const result = (await processLeadsJob.run({ leadId: ids[119] }, { db, log: logger() })) as { processed: number; failed: number };
    expect(result.processed).toBeGreaterThanOrEqual(120);
    const left = await db
      .select({ id: inboundLeads.id })
      .from(inboundLeads)
      .where(and(inArray(inboundLeads.id, ids), sql`status <> 'processed'`));
    expect(left).toEqual([]);
  });
});

describe("waking the processing", () => {
  it("a 202 lead wakes the job; a sync lead, processed by its own request, does not (a run would race it)", async () => {
    const c = await channel(t, brokers);
    const sent: unknown[] = [];
    // Events reach in-process listeners in the embedded mode (no runner is started here).
    const saved = process.env.JOBS_RUNNER;
    process.env.JOBS_RUNNER = "embedded";
    resetConfigForTests();
    const stop = onJobEvent((name, data) => name === leadReceived.name && sent.push(data));
    try {
      const post = (body: Record<string, unknown>, query = "") =>
        send(webhookRoute.POST, new Request(`http://localhost/api/webhooks/channels/${c.pathToken}${query}`, { method: "POST", body: JSON.stringify(body) }), {
          pathToken: c.pathToken,
        });
      expect((await post({ contactName: "Assíncrono", phone: phone(700), originLeadId: "wake-1" })).status).toBe(202);
      expect(sent).toHaveLength(1);
      expect((await post({ contactName: "Síncrono", phone: phone(701), originLeadId: "wake-2" }, "?sync=true")).status).toBe(200);
      expect(sent).toHaveLength(1);
    } finally {
      stop();
      if (saved === undefined) delete process.env.JOBS_RUNNER;
      else process.env.JOBS_RUNNER = saved;
      resetConfigForTests();
    }
  });
});

describe("contactWaves", () => {
  const row = (id: string, lead: Record<string, unknown>) => ({ id, lead }) as unknown as InboundLeadRow;
  it("puts a lead after the last earlier lead sharing its phone, e-mail (any case) or CPF", () => {
    const waves = contactWaves([
      row("a", { contactPhone: "+1", contactEmail: "x@y.z" }),
      row("b", { contactPhone: "+2" }),
      row("c", { contactEmail: "X@Y.Z" }),
      row("d", { cpf: "1", contactPhone: "+2" }),
      row("e", { cpf: "1" }),
      row("f", {}),
    ]);
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([["a", "b", "f"], ["c", "d"], ["e"]]);
  });
});
