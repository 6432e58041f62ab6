import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRoute from "../../../app/api/v1/agents/[id]/route";
import * as agentsRoute from "../../../app/api/v1/agents/route";
import * as templatesRoute from "../../../app/api/v1/agents/templates/route";
import { getDb } from "../../../db/client";
import { agents, events } from "../../../db/schema";
import { makeMember } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { grant, makeWahaChannel, messagingCast, type TestChannel } from "../../helpers/messaging";

let cast: Awaited<ReturnType<typeof messagingCast>>;
let channel: TestChannel;
let brokerChannel: TestChannel;
let otherChannel: TestChannel;
let admin: { userId: string; key: string };

const post = (body: unknown, key = cast.t.key) => call(agentsRoute.POST, "POST", "/api/v1/agents", { key, body });
const list = (key = cast.t.key) => call(agentsRoute.GET, "GET", "/api/v1/agents", { key });
const get = (id: string, key = cast.t.key) => call(agentRoute.GET, "GET", "/x", { key, params: { id } });
const patch = (id: string, body: unknown, key = cast.t.key) => call(agentRoute.PATCH, "PATCH", "/x", { key, params: { id }, body });
const del = (id: string, key = cast.t.key) => call(agentRoute.DELETE, "DELETE", "/x", { key, params: { id } });
const eventsOf = async (id: string) => (await getDb()).select().from(events).where(eq(events.entityId, id)).orderBy(asc(events.seq));

const ENTITY_KEYS = ["audience", "createdAt", "description", "executionMode", "id", "model", "name", "status", "templateId", "updatedAt"];

beforeAll(async () => {
  cast = await messagingCast();
  admin = await makeMember(cast.t, "admin");
  channel = await makeWahaChannel(cast.t, cast.gw);
  brokerChannel = await makeWahaChannel(cast.t, cast.gw, { ownerId: cast.ana.userId, name: "Ana" });
  otherChannel = await makeWahaChannel(cast.other, cast.gw);
});
afterAll(() => cast.gw.close());

describe("agent templates", () => {
  it("lists at least a lead qualifier, a listing answerer and a visit scheduler, readable by any member", async () => {
    const res = await call(templatesRoute.GET, "GET", "/api/v1/agents/templates", { key: cast.ana.key });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((t: { id: string }) => t.id);
    expect(ids).toEqual(expect.arrayContaining(["lead_qualifier", "listing_answerer", "visit_scheduler"]));
    for (const t of res.body.items) expect(t.instructions).toMatch(/você|imóve/i);
  });

  it("fills every field not sent from the template", async () => {
    const res = await post({ templateId: "visit_scheduler", channelIds: [channel.id], executionMode: "shadow" });
    expect(res.status).toBe(201);
    expect(res.body.agent).toMatchObject({
      name: "Agendador de visitas",
      templateId: "visit_scheduler",
      status: "active",
      executionMode: "shadow",
      audience: "all",
      channelIds: [channel.id],
      triggers: ["inbound_message"],
      toolPolicy: { maxSteps: 10, maxTokensPerExecution: 20000 },
      createdById: cast.t.ownerId,
    });
    expect(res.body.agent.toolPolicy.allow).toContain("create_visit_task");
    expect(res.body.agent.instructions).toContain("agendar visitas");
    // One voice per chat: a second active agent answering the same channel is a 409, a paused one is fine.
    const second = await post({ templateId: "lead_qualifier", channelIds: [channel.id] });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("channel_has_agent");
    expect((await post({ templateId: "lead_qualifier", channelIds: [channel.id], status: "paused" })).status).toBe(201);
    expect((await patch(res.body.agent.id, { status: "paused" })).status).toBe(200);
  });
});

describe("agents", () => {
  let id: string;

  it("creates an agent without a template, with maxSteps 8 by default, and agent.created carries the listed fields only", async () => {
    const res = await post({
      name: "Qualificador",
      status: "paused",
      executionMode: "approval",
      audience: "unassigned",
      instructions: "Qualifique o lead. SEGREDO-INSTRUCOES",
      channelIds: [channel.id.toUpperCase()],
      triggers: ["inbound_message", "lead_created"],
      toolPolicy: { allow: ["reply", "hand_over"] },
    });
    expect(res.status).toBe(201);
    id = res.body.agent.id;
    expect(res.body.agent).toMatchObject({ status: "paused", channelIds: [channel.id], toolPolicy: { allow: ["reply", "hand_over"], maxSteps: 8 } });
    const [row] = await (await getDb()).select().from(agents).where(eq(agents.id, id));
    expect(row.instructions).toBe("Qualifique o lead. SEGREDO-INSTRUCOES");
    const evs = await eventsOf(id);
    expect(evs.map((e) => e.eventName)).toEqual(["agent.created"]);
    expect(evs[0]).toMatchObject({ entityType: "agent", userId: cast.t.ownerId, tenantId: cast.t.tenantId });
    expect(Object.keys(evs[0].data).sort()).toEqual(["entity"]);
    expect(Object.keys((evs[0].data as { entity: object }).entity).sort()).toEqual(ENTITY_KEYS);
    expect(JSON.stringify(evs[0].data)).not.toMatch(/SEGREDO|hand_over|reply|channel/i);
  });

  it("refuses bad bodies with a 400 naming the field, and stores nothing", async () => {
    const before = (await list()).body.items.length;
    const base = {
      name: "X",
      executionMode: "autonomous",
      audience: "all",
      instructions: "i",
      channelIds: [channel.id],
      triggers: [],
      toolPolicy: { allow: [] },
    };
    const cases: [unknown, RegExp][] = [
      [{ ...base, toolPolicy: { allow: ["delete_everything"] } }, /unknown tool 'delete_everything'/],
      [{ ...base, toolPolicy: { allow: [], maxSteps: 0 } }, /maxSteps/],
      [{ ...base, toolPolicy: { allow: [], maxSteps: 500 } }, /maxSteps/],
      [{ ...base, triggers: ["every_minute"] }, /triggers/],
      [{ ...base, executionMode: "yolo" }, /executionMode/],
      [{ ...base, channelIds: [otherChannel.id] }, new RegExp(`channelIds: ${otherChannel.id}`)],
      [{ ...base, channelIds: [brokerChannel.id] }, /may use/],
      [{ ...base, channelIds: ["not-a-uuid"] }, /channelIds/],
      [{ ...base, templateId: "nope" }, /unknown template/],
      [{ channelIds: [channel.id] }, /instructions/],
      [{ ...base, extra: 1 }, /extra/],
    ];
    for (const [body, msg] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(msg);
    }
    expect((await list()).body.items.length).toBe(before);
  });

  it("accepts a broker's channel once the member holds a grant", async () => {
    await grant(cast.t, brokerChannel.id, [admin.userId]);
    const res = await post({ templateId: "lead_qualifier", channelIds: [brokerChannel.id] }, admin.key);
    expect(res.status).toBe(201);
    expect(res.body.agent.createdById).toBe(admin.userId);
  });

  it("members read; only owner or admin broad keys write", async () => {
    expect((await get(id, cast.ana.key)).status).toBe(200);
    expect((await list(cast.ana.key)).body.items.map((a: { id: string }) => a.id)).toContain(id);
    expect((await post({ templateId: "lead_qualifier", channelIds: [] }, cast.ana.key)).status).toBe(403);
    expect((await patch(id, { status: "active" }, cast.ana.key)).status).toBe(403);
    expect((await del(id, cast.ana.key)).status).toBe(403);
    const manager = await makeMember(cast.t, "manager");
    expect((await patch(id, { status: "active" }, manager.key)).status).toBe(403);
  });

  it("PATCH writes agent.updated with the changed field names only; the same values again write nothing", async () => {
    const res = await patch(id, { status: "active", instructions: "Novas instruções SEGREDO2", name: "Qualificador" });
    expect(res.status).toBe(200);
    expect(res.body.agent.status).toBe("active");
    let evs = await eventsOf(id);
    expect(evs.map((e) => e.eventName)).toEqual(["agent.created", "agent.updated"]);
    const data = evs[1].data as { entity: Record<string, unknown>; changedFields: string[] };
    expect(data.changedFields.sort()).toEqual(["instructions", "status"]);
    expect(Object.keys(data.entity).sort()).toEqual(ENTITY_KEYS);
    expect(JSON.stringify(evs[1])).not.toContain("SEGREDO2");
    expect((await patch(id, { status: "active" })).status).toBe(200);
    evs = await eventsOf(id);
    expect(evs).toHaveLength(2);
    expect((await patch(id, { toolPolicy: { allow: ["reply", "bogus"] } })).status).toBe(400);
    expect((await patch(id, {})).status).toBe(400);
    const tp = await patch(id, { toolPolicy: { allow: ["reply"], maxSteps: 3 } });
    expect(tp.body.agent.toolPolicy).toEqual({ allow: ["reply"], maxSteps: 3, maxTokensPerExecution: 20000 });
    evs = await eventsOf(id);
    expect((evs[2].data as { changedFields: string[] }).changedFields).toEqual(["toolPolicy"]);
    expect(JSON.stringify(evs[2].data)).not.toMatch(/reply|maxSteps/);
  });

  it("another tenant's key sees nothing and changes nothing", async () => {
    expect((await get(id, cast.other.key)).status).toBe(404);
    expect((await patch(id, { status: "paused" }, cast.other.key)).status).toBe(404);
    expect((await del(id, cast.other.key)).status).toBe(404);
    expect((await list(cast.other.key)).body.items).toEqual([]);
    expect((await get(id)).body.agent.status).toBe("active");
  });

  it("DELETE answers 204 and writes agent.deleted; then 404", async () => {
    const res = await del(id);
    expect(res.status).toBe(204);
    const evs = await eventsOf(id);
    expect(evs.at(-1)!.eventName).toBe("agent.deleted");
    expect(Object.keys((evs.at(-1)!.data as { entity: object }).entity).sort()).toEqual(ENTITY_KEYS);
    expect((await get(id)).status).toBe(404);
    expect((await del(id)).status).toBe(404);
  });
});
