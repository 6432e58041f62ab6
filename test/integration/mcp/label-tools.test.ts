/**
 * Label tools change labels on the provider (the fake WAHA gateway) through the messaging label
 * verbs, behind the channel grant and chat privacy; another tenant and a member without grant
 * change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { callTool, connectAgent, serveRoute, type Agent } from "../../helpers/mcp";
import { makeWahaChannel, receive, setPrivacy, type TestChannel } from "../../helpers/messaging";

let gw: FakeWaha;
let srv: Awaited<ReturnType<typeof serveRoute>>;
let t: TestTenant;
let other: TestTenant;
let ana: { userId: string; key: string };
let bruno: { userId: string; key: string };
let ch: TestChannel;
let agent: Agent;
let brunoAgent: Agent;
let otherAgent: Agent;
const CHAT = "5511987654321@c.us";
const HIDDEN = "5511900001111@c.us";

beforeAll(async () => {
  gw = await startFakeWaha();
  srv = await serveRoute();
  t = await makeTenant();
  other = await makeTenant();
  ana = await makeMember(t, "broker");
  bruno = await makeMember(t, "broker");
  ch = await makeWahaChannel(t, gw, { ownerId: ana.userId });
  await receive(gw, ch, CHAT, "oi");
  await receive(gw, ch, HIDDEN, "oi");
  await setPrivacy(t, ch.id, HIDDEN, "hidden");
  [agent, brunoAgent, otherAgent] = await Promise.all([connectAgent(srv.url, ana.key), connectAgent(srv.url, bruno.key), connectAgent(srv.url, other.key)]);
}, 120_000);
afterAll(async () => {
  await Promise.all([agent, brunoAgent, otherAgent].map((a) => a?.close()));
  await srv.close();
  await gw.close();
});

describe("labels on the provider", () => {
  it("create, add, remove and delete reach the gateway and answer the result", async () => {
    const created = await callTool(agent, "create_label", { channelId: ch.id, name: "Quente", colorHex: "#ff0000" });
    expect(created.isError).toBeFalsy();
    const label = created.structuredContent.label;
    expect(label).toMatchObject({ name: "Quente", color: "#ff0000" });
    expect([...gw.state.labels.values()].map((l) => l.name)).toContain("Quente");

    const added = await callTool(agent, "add_chat_label", { channelId: ch.id, chatId: CHAT, labelId: label.id });
    expect(added.structuredContent).toEqual({ channelId: ch.id, chatId: CHAT, labels: [label.id] });
    expect(gw.state.chatLabels.get(CHAT)).toEqual([label.id]);
    const twice = await callTool(agent, "add_chat_label", { channelId: ch.id, chatId: CHAT, labelId: label.id });
    expect(twice.structuredContent.labels).toEqual([label.id]);

    const removed = await callTool(agent, "remove_chat_label", { channelId: ch.id, chatId: CHAT, labelId: label.id });
    expect(removed.structuredContent.labels).toEqual([]);
    expect(gw.state.chatLabels.get(CHAT)).toEqual([]);

    const deleted = await callTool(agent, "delete_label", { channelId: ch.id, labelId: label.id });
    expect(deleted.structuredContent).toMatchObject({ id: label.id, deleted: true });
    expect(gw.state.labels.has(label.id)).toBe(false);
  });

  it("refuses without a grant, on another tenant's channel, on a hidden chat, and an unknown label", async () => {
    const label = (await callTool(agent, "create_label", { channelId: ch.id, name: "Frio" })).structuredContent.label;
    const calls = gw.state.requests.length;
    const noGrant = await callTool(brunoAgent, "add_chat_label", { channelId: ch.id, chatId: CHAT, labelId: label.id });
    expect(noGrant.isError).toBe(true);
    expect(noGrant.structuredContent.error.code).toBe("channel_forbidden");
    const foreign = await callTool(otherAgent, "delete_label", { channelId: ch.id, labelId: label.id });
    expect(foreign.structuredContent.error.code).toBe("not_found_or_inaccessible");
    const foreignCreate = await callTool(otherAgent, "create_label", { channelId: ch.id, name: "intruso" });
    expect(foreignCreate.structuredContent.error.code).toBe("not_found_or_inaccessible");
    expect(gw.state.requests.length).toBe(calls); // the gateway was never called
    const hidden = await callTool(agent, "add_chat_label", { channelId: ch.id, chatId: HIDDEN, labelId: label.id });
    expect(hidden.structuredContent.error.code).toBe("privacy_restricted");
    const unknown = await callTool(agent, "add_chat_label", { channelId: ch.id, chatId: CHAT, labelId: "999" });
    expect(unknown.structuredContent.error.code).toBe("label_not_found");
    expect(gw.state.labels.has(label.id)).toBe(true);
  });

  it("a gateway failure is `channel_unreachable` and changes nothing", async () => {
    gw.state.switches.failStatus = 500;
    try {
      const r = await callTool(agent, "create_label", { channelId: ch.id, name: "Nunca" });
      expect(r.isError).toBe(true);
      expect(r.structuredContent.error.code).toBe("channel_unreachable");
    } finally {
      gw.state.switches.failStatus = 0;
    }
    expect([...gw.state.labels.values()].map((l) => l.name)).not.toContain("Nunca");
  });
});
