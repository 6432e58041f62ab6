/**
 * Issue 32, D7: a restricted broker attached another broker's private listing to its task, offer
 * or transaction, and a missing listing id answered differently from an unreadable one. Every
 * `listingId` the key cannot read is now refused exactly like one that does not exist.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as offersRoute from "../../../app/api/v1/crm/offers/route";
import * as tasksRoute from "../../../app/api/v1/crm/tasks/route";
import * as taskRoute from "../../../app/api/v1/crm/tasks/[id]/route";
import * as txsRoute from "../../../app/api/v1/crm/transactions/route";
import * as txRoute from "../../../app/api/v1/crm/transactions/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { offers, tasks, transactions } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let broker: { userId: string; key: string };
let dealId: string;
let othersPrivate: string;
let othersPublic: string;
let mine: string;
let otherTenants: string;
const MISSING = "00000000-0000-4000-8000-000000000000";

const listingOf = async (key: string, visibility: string, over: Record<string, unknown> = {}) => {
  const res = await call(propertiesRoute.POST, "POST", "/x", { key, body: propertyBody(over, [saleListing({ visibility })]) });
  expect(res.status).toBe(201);
  return res.body.listings[0].id as string;
};

beforeAll(async () => {
  t = await makeTenant();
  broker = await makeMember(t, "broker", "restricted");
  const other = await makeMember(t, "broker");
  othersPrivate = await listingOf(t.key, "private", { assignedToId: other.userId });
  othersPublic = await listingOf(t.key, "public", { assignedToId: other.userId });
  mine = await listingOf(broker.key, "private");
  const u = await makeTenant();
  otherTenants = await listingOf(u.key, "public");
  const deal = await call(dealsRoute.POST, "POST", "/x", {
    key: broker.key,
    body: { title: "Compra", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] },
  });
  expect(deal.status).toBe(201);
  dealId = deal.body.id;
});

/** Each way a listing id reaches a record, as the broker's key sends it. */
const attempts: Record<string, (listingId: string) => Promise<{ status: number; body: any }>> = {
  "task create": (listingId) => call(tasksRoute.POST, "POST", "/x", { key: broker.key, body: { title: "Visita", type: "visit", dealId, listingId } }),
  "task PATCH": async (listingId) => {
    const task = await call(tasksRoute.POST, "POST", "/x", { key: broker.key, body: { title: "Ligar", type: "call", dealId } });
    return call(taskRoute.PATCH, "PATCH", "/x", { key: broker.key, params: { id: task.body.id }, body: { listingId } });
  },
  "offer create": (listingId) => call(offersRoute.POST, "POST", "/x", { key: broker.key, body: { dealId, amount: "900000", listingId } }),
  "transaction create": (listingId) => call(txsRoute.POST, "POST", "/x", { key: broker.key, body: { dealId, amount: "900000", listingId } }),
  "transaction PATCH": async (listingId) => {
    const tx = await call(txsRoute.POST, "POST", "/x", { key: broker.key, body: { dealId, amount: "900000" } });
    expect(tx.status).toBe(201);
    return call(txRoute.PATCH, "PATCH", "/x", { key: broker.key, params: { id: tx.body.id }, body: { listingId } });
  },
  "deal create (custom.leadListings)": (listingId) =>
    call(dealsRoute.POST, "POST", "/x", {
      key: broker.key,
      body: {
        title: "Outra",
        dealType: "sale",
        contacts: [{ name: "Bia", email: "bia@example.com", role: "buyer" }],
        custom: { leadListings: [{ listingId }] },
      },
    }),
  "deal PATCH (custom.leadListings)": (listingId) =>
    call(dealRoute.PATCH, "PATCH", "/x", {
      key: broker.key,
      params: { id: dealId },
      body: { id: dealId, data: { custom: { leadListings: [{ listingId }] } } },
    }),
};

/** The answer with the id taken out, so a missing and an unreadable id can be compared whole. */
const shape = (res: { status: number; body: any }, id: string) => ({
  status: res.status,
  code: res.body?.error?.code,
  message: String(res.body?.error?.message).replace(id, "<id>"),
});

describe("a restricted broker's listing references", () => {
  it.each(Object.keys(attempts))("%s: another broker's private listing is refused exactly like a missing one", async (name) => {
    const db = await getDb();
    const before = [
      (await db.select().from(tasks).where(eq(tasks.tenantId, t.tenantId))).filter((r) => r.listingId === othersPrivate).length,
      (await db.select().from(offers).where(eq(offers.listingId, othersPrivate))).length,
      (await db.select().from(transactions).where(eq(transactions.listingId, othersPrivate))).length,
    ];
    const missing = await attempts[name](MISSING);
    const unreadable = await attempts[name](othersPrivate);
    expect(missing.status).toBe(400);
    expect(shape(unreadable, othersPrivate)).toEqual(shape(missing, MISSING));
    expect(unreadable.body.error.message).toContain("listing");
    expect(shape(await attempts[name](otherTenants), otherTenants)).toEqual(shape(missing, MISSING));
    const after = [
      (await db.select().from(tasks).where(eq(tasks.tenantId, t.tenantId))).filter((r) => r.listingId === othersPrivate).length,
      (await db.select().from(offers).where(eq(offers.listingId, othersPrivate))).length,
      (await db.select().from(transactions).where(eq(transactions.listingId, othersPrivate))).length,
    ];
    expect(after).toEqual(before);
  });

  it.each(Object.keys(attempts))("%s: its own and public listings are accepted", async (name) => {
    expect((await attempts[name](mine)).status).toBeLessThan(300);
    expect((await attempts[name](othersPublic)).status).toBeLessThan(300);
  });
});
