import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "../../../app/api/v1/crm/deals/[id]/distribution/accept/route";
import * as rejectRoute from "../../../app/api/v1/crm/deals/[id]/distribution/reject/route";
import * as transferRoute from "../../../app/api/v1/crm/deals/[id]/transfer/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as memberRoute from "../../../app/api/v1/settings/members/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
const contact = { name: "Caio", email: "caio@example.com", role: "buyer" };
const newDeal = async (over: Record<string, unknown> = {}) =>
  (await call(dealsRoute.POST, "POST", "/x", { key: t.key, body: { title: "Negócio", dealType: "sale", contacts: [contact], ...over } })).body.id as string;
const getDeal = (id: string, key = t.key) => call(dealRoute.GET, "GET", "/x", { key, params: { id } });
const eventsOf = async (ids: string[], name?: string) => {
  const db = await getDb();
  return db
    .select()
    .from(events)
    .where(and(inArray(events.entityId, ids), name ? eq(events.eventName, name) : undefined))
    .orderBy(asc(events.seq));
};

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
});

describe("POST /deals/{id}/transfer", () => {
  it("hands the deal over with one distribution.transferred and a deal.updated", async () => {
    const b1 = await makeMember(t, "broker");
    const id = await newDeal({ assignedToId: b1.userId });
    const b2 = await makeMember(t, "broker");
    const res = await call(transferRoute.POST, "POST", "/x", { key: t.key, params: { id }, body: { newOwnerId: b2.userId, transferReason: "vacation" } });
    expect(res.status).toBe(200);
    expect(res.body.assignedToId).toBe(b2.userId);
    const [tr] = await eventsOf([id], "distribution.transferred");
    expect(tr.entityType).toBe("deal");
    expect(tr.userId).toBe(t.ownerId);
    expect(tr.data).toEqual({ dealId: id, previousOwnerId: b1.userId, newOwnerId: b2.userId, transferReason: "vacation" });
    const [up] = await eventsOf([id], "deal.updated");
    expect((up.old as any).assignedToId).toBe(b1.userId);
    expect((up.data as any).entity.assignedToId).toBe(b2.userId);
    // To the current owner: nothing changes, nothing is sent.
    await call(transferRoute.POST, "POST", "/x", { key: t.key, params: { id }, body: { newOwnerId: b2.userId } });
    expect(await eventsOf([id], "distribution.transferred")).toHaveLength(1);
  });

  it("defaults transferReason to manual and refuses bad targets, reserved reasons and other tenants", async () => {
    const b = await makeMember(t, "broker");
    const id = await newDeal();
    const post = (body: unknown, key = t.key) => call(transferRoute.POST, "POST", "/x", { key, params: { id }, body });
    expect((await post({ newOwnerId: b.userId })).status).toBe(200);
    expect((await eventsOf([id], "distribution.transferred"))[0].data).toMatchObject({ transferReason: "manual", previousOwnerId: t.ownerId });
    const inactive = await makeMember(t, "broker", "broad", { active: false });
    expect((await post({ newOwnerId: inactive.userId })).status).toBe(400);
    expect((await post({ newOwnerId: other.ownerId })).status).toBe(400);
    expect((await post({ newOwnerId: t.ownerId, transferReason: "member_deactivated" })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ newOwnerId: other.ownerId }, other.key)).status).toBe(404);
    const restricted = await makeMember(t, "broker", "restricted");
    const mine = await newDeal({ assignedToId: restricted.userId });
    expect((await call(transferRoute.POST, "POST", "/x", { key: restricted.key, params: { id: mine }, body: { newOwnerId: b.userId } })).status).toBe(403);
    expect((await getDeal(id)).body.assignedToId).toBe(b.userId);
  });
});

describe("member deactivation", () => {
  it("hands every open deal of the member to transferDealsTo, one distribution.transferred each with member_deactivated", async () => {
    const leaving = await makeMember(t, "broker");
    const heir = await makeMember(t, "broker");
    const open1 = await newDeal({ assignedToId: leaving.userId });
    const open2 = await newDeal({ assignedToId: leaving.userId });
    const won = await newDeal({ assignedToId: leaving.userId, status: "won" });
    const res = await call(memberRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: leaving.userId },
      body: { active: false, transferDealsTo: heir.userId },
    });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
    const tr = await eventsOf([open1, open2, won], "distribution.transferred");
    expect(tr.map((e) => e.entityId).sort()).toEqual([open1, open2].sort());
    for (const e of tr)
      expect(e.data).toEqual({ dealId: e.entityId, previousOwnerId: leaving.userId, newOwnerId: heir.userId, transferReason: "member_deactivated" });
    expect((await getDeal(open1)).body.assignedToId).toBe(heir.userId);
    expect((await getDeal(won)).body.assignedToId).toBe(leaving.userId);
  });

  it("defaults to the deactivating member and refuses a bad heir without deactivating", async () => {
    const leaving = await makeMember(t, "broker");
    const d = await newDeal({ assignedToId: leaving.userId });
    const bad = await call(memberRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: leaving.userId },
      body: { active: false, transferDealsTo: other.ownerId },
    });
    expect(bad.status).toBe(400);
    expect((await getDeal(d)).body.assignedToId).toBe(leaving.userId);
    expect(
      (await call(memberRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: leaving.userId }, body: { name: "X", transferDealsTo: t.ownerId } })).status,
    ).toBe(400);
    const ok = await call(memberRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: leaving.userId }, body: { active: false } });
    expect(ok.status).toBe(200);
    expect((await getDeal(d)).body.assignedToId).toBe(t.ownerId);
    expect((await eventsOf([d], "distribution.transferred"))[0].data).toMatchObject({ newOwnerId: t.ownerId, transferReason: "member_deactivated" });
  });
});

describe("distribution accept / reject", () => {
  it("accept writes distribution.accepted once; reject passes the lead to the next broker of the queue", async () => {
    const b1 = await makeMember(t, "broker", "restricted");
    const b2 = await makeMember(t, "broker", "restricted");
    const ch = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Portal", kind: "portal", queue: [b1.userId, b2.userId] } });
    expect(ch.status).toBe(201);
    const first = await newDeal({ marketingChannelInstanceId: ch.body.id });
    const second = await newDeal({ marketingChannelInstanceId: ch.body.id });
    expect((await getDeal(first)).body.assignedToId).toBe(b1.userId);
    expect((await getDeal(second)).body.assignedToId).toBe(b2.userId);

    // Only the broker it went to can answer.
    expect((await call(acceptRoute.POST, "POST", "/x", { key: b2.key, params: { id: first } })).status).toBe(404);
    expect((await call(acceptRoute.POST, "POST", "/x", { key: t.key, params: { id: first } })).status).toBe(403);
    const acc = await call(acceptRoute.POST, "POST", "/x", { key: b1.key, params: { id: first } });
    expect(acc.status).toBe(200);
    await call(acceptRoute.POST, "POST", "/x", { key: b1.key, params: { id: first } });
    const accepted = await eventsOf([first], "distribution.accepted");
    expect(accepted).toHaveLength(1);
    expect(accepted[0].userId).toBe(b1.userId);
    expect(accepted[0].data).toEqual({ dealId: first, memberId: b1.userId, marketingChannelInstanceId: ch.body.id, acceptedAt: expect.any(String) });
    expect((await call(rejectRoute.POST, "POST", "/x", { key: b1.key, params: { id: first } })).status).toBe(409);

    const rej = await call(rejectRoute.POST, "POST", "/x", { key: b2.key, params: { id: second }, body: { reason: "Fora da região" } });
    expect(rej.status).toBe(200);
    expect(rej.body.assignedToId).toBe(b1.userId);
    const evs = await eventsOf([second]);
    const names = evs.map((e) => e.eventName);
    expect(names.slice(names.indexOf("distribution.rejected"))).toEqual(["distribution.rejected", "distribution.assigned", "deal.updated"]);
    const r = evs.find((e) => e.eventName === "distribution.rejected")!;
    expect(r.data).toEqual({
      dealId: second,
      memberId: b2.userId,
      reason: "Fora da região",
      marketingChannelInstanceId: ch.body.id,
      nextAssignedToId: b1.userId,
    });
    expect(evs.filter((e) => e.eventName === "distribution.assigned").at(-1)!.data).toMatchObject({ assignedToId: b1.userId, method: "round_robin" });
  });

  it("a deal without a channel was not distributed: 409", async () => {
    const id = await newDeal();
    const res = await call(acceptRoute.POST, "POST", "/x", { key: t.key, params: { id } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("not_distributed");
  });
});
