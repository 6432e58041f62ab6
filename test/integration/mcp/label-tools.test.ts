/**
 * Label tools change labels on the provider (the fake WAHA gateway) through the messaging label
 * verbs, behind the channel grant and chat privacy; another tenant and a member without grant
 * change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeWaha } from "../../fakes/waha-gateway";
import type { TestTenant } from "../../helpers/factories";
import { callTool, closeMcpCast, connectAgents, mcpCast, type Agent, type RouteServer } from "../../helpers/mcp";
import { makeWahaChannel, receive, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";

let gw: FakeWaha;
let srv: RouteServer;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let ch: TestChannel;
let agent: Agent;
let brunoAgent: Agent;
let otherAgent: Agent;
const CHAT = "5511987654321@c.us";
const HIDDEN = "5511900001111@c.us";

beforeAll(async () => {
  ({ gw, srv, t, other, ana, bruno } = await mcpCast());
  ch = await makeWahaChannel(t, gw, { ownerId: ana.userId });
  await receive(gw, ch, CHAT, "oi");
  await receive(gw, ch, HIDDEN, "oi");
  await setPrivacy(t, ch.id, HIDDEN, "hidden");
  [agent, brunoAgent, otherAgent] = await connectAgents(srv.url, [ana.key, bruno.key, other.key]);
}, 120_000);
afterAll(() => closeMcpCast([agent, brunoAgent, otherAgent], srv, gw));

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
