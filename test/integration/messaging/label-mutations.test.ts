/**
 * The label verbs the tool interface calls (REST only reads labels): gates first, then the
 * gateway through the adapter, then the stored labels.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { messagingConversations, messagingLabels } from "../../../db/schema";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { memberCtx, type MemberCtx } from "../../../lib/context/verb-context";
import { addChatLabel, createChannelLabel, deleteChannelLabel, removeChatLabel } from "../../../lib/messaging/labels/mutate-labels";
import type { FakeWaha } from "../../fakes/waha-gateway";
import type { TestTenant } from "../../helpers/factories";
import { makeWahaChannel, messagingCast, receive, setPrivacy, type TestChannel } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;
let ch: TestChannel;
let ana: MemberCtx;
let bruno: MemberCtx;
let outsider: MemberCtx;
const chat = "5511987651111@c.us";

const ctxOf = async (key: string) => {
  const db = await getDb();
  return memberCtx(db, await authenticateApiKey(db, key));
};

beforeAll(async () => {
  const cast = await messagingCast();
  ({ gw, t, other } = cast);
  const [a, b] = [cast.ana, cast.bruno];
  ch = await makeWahaChannel(t, gw, { ownerId: a.userId });
  await receive(gw, ch, chat, "oi");
  ana = await ctxOf(a.key);
  bruno = await ctxOf(b.key);
  outsider = await ctxOf(other.key);
});
afterAll(() => gw.close());

describe("label mutation verbs", () => {
  it("creates a label, adds it to a chat and removes it, on the gateway and in the stored record", async () => {
    const label = await createChannelLabel(ana, { channelId: ch.id, name: "Quente", colorHex: "#ff0000" });
    expect(label).toMatchObject({ name: "Quente", color: "#ff0000" });
    expect([...gw.state.labels.values()].map((l) => l.name)).toContain("Quente");
    const db = await getDb();
    expect(await db.select().from(messagingLabels).where(eq(messagingLabels.channelId, ch.id))).toHaveLength(1);

    expect(await addChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: label.id })).toEqual({ chatId: chat, labels: [label.id] });
    expect(gw.state.chatLabels.get(chat)).toEqual([label.id]);
    const [c] = await db
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, chat)));
    expect(c.labels).toEqual([label.id]);

    expect(await removeChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: label.id })).toEqual({ chatId: chat, labels: [] });
    expect(gw.state.chatLabels.get(chat)).toEqual([]);

    await addChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: label.id });
    expect(await deleteChannelLabel(ana, { channelId: ch.id, labelId: label.id })).toEqual({ id: label.id, deleted: true });
    const [c2] = await db
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, chat)));
    expect(c2.labels).toEqual([]);
    expect(gw.state.labels.has(label.id)).toBe(false);
  });

  it("passes the read gates first: no grant, another tenant, a hidden chat, an unknown label", async () => {
    const label = await createChannelLabel(ana, { channelId: ch.id, name: "Frio" });
    const n = gw.state.requests.length;
    await expect(addChatLabel(bruno, { channelId: ch.id, chatId: chat, labelId: label.id })).rejects.toMatchObject({ code: "channel_forbidden" });
    await expect(addChatLabel(outsider, { channelId: ch.id, chatId: chat, labelId: label.id })).rejects.toMatchObject({ code: "not_found_or_inaccessible" });
    await expect(createChannelLabel(bruno, { channelId: ch.id, name: "x" })).rejects.toMatchObject({ code: "channel_forbidden" });
    await expect(deleteChannelLabel(outsider, { channelId: ch.id, labelId: label.id })).rejects.toMatchObject({ code: "not_found_or_inaccessible" });
    await expect(addChatLabel(ana, { channelId: ch.id, chatId: "../", labelId: label.id })).rejects.toMatchObject({ code: "not_found_or_inaccessible" });
    expect(gw.state.requests.length).toBe(n);
    await setPrivacy(t, ch.id, chat, "hidden");
    await expect(addChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: label.id })).rejects.toMatchObject({ code: "privacy_restricted" });
    await setPrivacy(t, ch.id, chat, "whitelisted");
    await expect(addChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: "999" })).rejects.toMatchObject({ code: "label_not_found" });
    gw.state.switches.failStatus = 500;
    await expect(addChatLabel(ana, { channelId: ch.id, chatId: chat, labelId: label.id })).rejects.toMatchObject({ code: "channel_unreachable" });
    gw.state.switches.failStatus = 0;
  });
});
