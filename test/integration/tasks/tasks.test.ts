import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as taskRoute from "../../../app/api/v1/crm/tasks/[id]/route";
import * as tasksRoute from "../../../app/api/v1/crm/tasks/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { events, tasks } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let broker: Awaited<ReturnType<typeof makeMember>>;
let dealId: string;
let brokerDealId: string;
let listingId: string;

const post = (body: unknown, key = t.key) => call(tasksRoute.POST, "POST", "/api/v1/crm/tasks", { key, body });
const list = (query: Record<string, string> = {}, key = t.key) => call(tasksRoute.GET, "GET", "/api/v1/crm/tasks", { key, query });
const get = (id: string, key = t.key) => call(taskRoute.GET, "GET", "/x", { key, params: { id } });
const patch = (id: string, body: unknown, key = t.key) => call(taskRoute.PATCH, "PATCH", "/x", { key, params: { id }, body });
const del = (id: string, key = t.key) => call(taskRoute.DELETE, "DELETE", "/x", { key, params: { id } });
const eventsOf = async (id: string) => {
  const db = await getDb();
  return db.select().from(events).where(eq(events.entityId, id)).orderBy(asc(events.seq));
};

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  broker = await makeMember(t, "broker", "restricted");
  const deal = await call(dealsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { title: "Compra", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }], assignedToId: broker.userId },
  });
  brokerDealId = deal.body.id;
  const d2 = await call(dealsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { title: "Aluguel", dealType: "rental", contacts: [{ name: "Bia", email: "bia@example.com", role: "tenant" }] },
  });
  dealId = d2.body.id;
  const p = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() });
  listingId = p.body.listings[0].id;
});

describe("tasks", () => {
  it("creates a task of a deal assigned by default to the deal's broker, with task.created carrying the row", async () => {
    const res = await post({ title: "Visita ao apto", type: "visit", dealId: brokerDealId, listingId, dueAt: "2026-12-01T14:00:00-03:00" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "Visita ao apto",
      type: "visit",
      dealId: brokerDealId,
      listingId,
      assigneeId: broker.userId,
      dueAt: "2026-12-01T17:00:00.000Z",
      status: "open",
      notes: null,
      createdById: t.ownerId,
    });
    const [ev] = await eventsOf(res.body.id);
    expect(ev.eventName).toBe("task.created");
    expect(ev.entityType).toBe("task");
    expect(ev.userId).toBe(t.ownerId);
    expect(ev.data).toEqual({
      taskId: res.body.id,
      title: "Visita ao apto",
      type: "visit",
      dealId: brokerDealId,
      listingId,
      assigneeId: broker.userId,
      dueAt: "2026-12-01T17:00:00.000Z",
      status: "open",
      notes: null,
      createdById: t.ownerId,
      createdAt: res.body.createdAt,
      updatedAt: res.body.updatedAt,
    });
  });

  it("refuses bad input with a 400 naming the field and writes nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(tasks)).length;
    const cases: [unknown, RegExp][] = [
      [{ type: "call" }, /title/],
      [{ title: "x", type: "party" }, /type/],
      [{ title: "x", type: "call", dueAt: "amanhã" }, /dueAt/],
      [{ title: "x", type: "call", dealId: "00000000-0000-4000-8000-000000000000" }, /dealId: no deal/],
      [{ title: "x", type: "call", listingId: "00000000-0000-4000-8000-000000000000" }, /listingId: no listing/],
      [{ title: "x", type: "call", assigneeId: other.ownerId }, /assigneeId: no active member/],
      [{ title: "x", type: "call", color: "red" }, /color/],
    ];
    for (const [body, msg] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    expect((await db.select().from(tasks)).length).toBe(before);
  });

  it("lists with filters by deal, assignee, status and due range", async () => {
    const a = await post({ title: "Ligar", type: "call", dealId, dueAt: "2026-12-02T10:00:00Z" });
    const b = await post({ title: "Follow-up", type: "follow_up", dealId, dueAt: "2026-12-05T10:00:00Z", status: "done" });
    const c = await post({ title: "Sem prazo", type: "other", assigneeId: broker.userId });
    const ids = (r: { body: { items: { id: string }[] } }) => r.body.items.map((i) => i.id);
    expect(ids(await list({ dealId }))).toEqual([a.body.id, b.body.id]);
    expect(ids(await list({ dealId, status: "done" }))).toEqual([b.body.id]);
    expect(ids(await list({ dueFrom: "2026-12-02T10:00:00Z", dueTo: "2026-12-05T10:00:00Z" }))).toEqual([a.body.id]);
    expect(ids(await list({ assigneeId: broker.userId }))).toContain(c.body.id);
    expect(ids(await list({ assigneeId: broker.userId }))).not.toContain(a.body.id);
    const all = await list();
    expect(all.body.items.at(-1).id).toBe(c.body.id); // no due date: last
    expect((await list({ dueFrom: "2026-12-05T00:00:00Z", dueTo: "2026-12-01T00:00:00Z" })).status).toBe(400);
    expect((await list({ colour: "x" })).status).toBe(400);
  });

  it("updates with task.updated carrying old and new rows; the same values again write nothing", async () => {
    const a = await post({ title: "Ligar", type: "call", dealId });
    const up = await patch(a.body.id, { status: "done", notes: "Cliente atendeu" });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: "done", notes: "Cliente atendeu" });
    const again = await patch(a.body.id, { status: "done" });
    expect(again.status).toBe(200);
    const evs = await eventsOf(a.body.id);
    expect(evs.map((e) => e.eventName)).toEqual(["task.created", "task.updated"]);
    expect(evs[1].old).toMatchObject({ taskId: a.body.id, status: "open", notes: null });
    expect(evs[1].data).toMatchObject({ taskId: a.body.id, status: "done", notes: "Cliente atendeu" });
    expect((await patch(a.body.id, {})).status).toBe(400);
    expect((await patch(a.body.id, { status: "archived" })).status).toBe(400);
  });

  it("deletes with task.deleted; then 404", async () => {
    const a = await post({ title: "Apagar", type: "other" });
    const res = await del(a.body.id);
    expect(res.body).toEqual({ id: a.body.id, deleted: true });
    expect((await get(a.body.id)).status).toBe(404);
    expect((await eventsOf(a.body.id)).map((e) => e.eventName)).toEqual(["task.created", "task.deleted"]);
  });

  it("a restricted broker sees its own tasks and its deals' tasks, and assigns only to itself", async () => {
    const mine = await post({ title: "Minha", type: "call", dealId: brokerDealId });
    const notMine = await post({ title: "Do dono", type: "call", dealId });
    expect((await get(mine.body.id, broker.key)).status).toBe(200);
    expect((await get(notMine.body.id, broker.key)).status).toBe(404);
    expect((await patch(notMine.body.id, { status: "done" }, broker.key)).status).toBe(404);
    const own = await post({ title: "Criada pelo corretor", type: "call" }, broker.key);
    expect(own.status).toBe(201);
    expect(own.body.assigneeId).toBe(broker.userId);
    expect((await post({ title: "x", type: "call", assigneeId: t.ownerId }, broker.key)).status).toBe(403);
    expect((await post({ title: "x", type: "call", dealId }, broker.key)).status).toBe(400);
    const seen = (await list({}, broker.key)).body.items.map((i: { id: string }) => i.id);
    expect(seen).toContain(mine.body.id);
    expect(seen).not.toContain(notMine.body.id);
  });

  it("another tenant's key sees nothing and gets 404 for these ids", async () => {
    const a = await post({ title: "Privada", type: "call" });
    expect((await get(a.body.id, other.key)).status).toBe(404);
    expect((await patch(a.body.id, { title: "hack" }, other.key)).status).toBe(404);
    expect((await del(a.body.id, other.key)).status).toBe(404);
    expect((await list({}, other.key)).body.total).toBe(0);
    expect((await post({ title: "x", type: "call", dealId }, other.key)).status).toBe(400);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, a.body.id)));
    expect(row.title).toBe("Privada");
  });

  it("needs an API key and answers 404 for a malformed id", async () => {
    expect((await list({}, null as unknown as string)).status).toBe(401);
    expect((await get("nope")).status).toBe(404);
  });
});
