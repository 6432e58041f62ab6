/**
 * Two tenants and two brokers with different grants: no chat of a channel the key's member may
 * not use ever appears, in the list, the detail, resync, labels, assignments, the channel inventory,
 * replies or events; ids sent across tenants change nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as resyncRoute from "../../../app/api/v1/messaging/conversations/resync/route";
import * as channelsRoute from "../../../app/api/v1/messaging/channels/route";
import * as labelsRoute from "../../../app/api/v1/messaging/labels/route";
import * as assignmentsRoute from "../../../app/api/v1/messaging/labels/assignments/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as sendRoute from "../../../app/api/v1/messaging/send/route";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { grant, makeWahaChannel, postWebhook, processNow, receive, setPrivacy, type TestChannel } from "../../helpers/messaging";

let gwA: FakeWaha;
let gwB: FakeWaha;
let gwT2: FakeWaha;
let t1: TestTenant;
let t2: TestTenant;
let ana: { userId: string; key: string };
let bruno: { userId: string; key: string };
let carla: { userId: string; key: string };
let chA: TestChannel;
let chB: TestChannel;
let chT2: TestChannel;
// The same chat id on all three channels: only the channel decides who sees it.
const chat = "5511987000001@c.us";
const onlyB = "5511987000002@c.us";
const hiddenOnB = "5511987000003@c.us";

type Who = { key: string; sees: string[] };
let who: Record<string, Who>;

beforeAll(async () => {
  gwA = await startFakeWaha({ session: "ana" });
  gwB = await startFakeWaha({ session: "bruno" });
  gwT2 = await startFakeWaha({ session: "outra" });
  t1 = await makeTenant();
  t2 = await makeTenant();
  ana = await makeMember(t1, "broker");
  bruno = await makeMember(t1, "broker");
  carla = await makeMember(t1, "admin");
  chA = await makeWahaChannel(t1, gwA, { ownerId: ana.userId, name: "Ana" });
  chB = await makeWahaChannel(t1, gwB, { ownerId: bruno.userId, name: "Bruno" });
  chT2 = await makeWahaChannel(t2, gwT2, { name: "Outra imobiliária" });
  await grant(t1, chB.id, [carla.userId]); // carla: Bruno's channel only; ana: her own only
  for (const [gw, ch] of [
    [gwA, chA],
    [gwB, chB],
    [gwT2, chT2],
  ] as const)
    await receive(gw, ch, chat, `olá ${ch.id.slice(0, 4)}`, { pushName: "Cliente" });
  await receive(gwB, chB, onlyB, "só no canal do Bruno", { pushName: "Duda" });
  // Blacklisted before its first message: none of its messages may raise an event.
  await setPrivacy(t1, chB.id, hiddenOnB, "hidden");
  await receive(gwB, chB, hiddenOnB, "chat bloqueado", { pushName: "Escondido" });
  for (const [gw, ch] of [
    [gwA, chA],
    [gwB, chB],
    [gwT2, chT2],
  ] as const) {
    gw.state.labels.set("1", { id: "1", name: `Etiqueta ${ch.id.slice(0, 4)}`, color: 0, colorHex: "#000000" });
    await postWebhook(ch.token, gw.webhook(ch.secret, "label.upsert", { id: "1", name: `Etiqueta ${ch.id.slice(0, 4)}`, colorHex: "#000000" }));
    for (const c of [chat, onlyB, hiddenOnB]) await postWebhook(ch.token, gw.webhook(ch.secret, "label.chat.added", { labelId: "1", chatId: c }));
  }
  await processNow();
  who = {
    ana: { key: ana.key, sees: [chA.id] },
    bruno: { key: bruno.key, sees: [chB.id] },
    carla: { key: carla.key, sees: [chB.id] },
    owner1: { key: t1.key, sees: [] },
    t2: { key: t2.key, sees: [chT2.id] },
  };
}, 90_000);
afterAll(async () => {
  await gwA.close();
  await gwB.close();
  await gwT2.close();
});

const all = () => [chA, chB, chT2];

describe("isolation", () => {
  it("lists and the channel inventory show exactly the member's channels, and never a hidden chat", async () => {
    for (const [name, w] of Object.entries(who)) {
      const list = await call(listRoute.GET, "GET", "/x", { key: w.key, query: { limit: "100" } });
      expect(list.status, name).toBe(200);
      const channelsSeen = [...new Set(list.body.conversations.map((c: any) => c.key.channelId))].sort();
      expect(channelsSeen, name).toEqual([...w.sees].sort());
      expect(JSON.stringify(list.body), name).not.toContain(hiddenOnB);
      expect(JSON.stringify(list.body), name).not.toContain("Escondido");
      for (const other of all().filter((c) => !w.sees.includes(c.id))) {
        const filtered = await call(listRoute.GET, "GET", "/x", { key: w.key, query: { channelId: other.id } });
        expect(filtered.body.conversations, name).toEqual([]);
        expect(JSON.stringify(filtered.body)).not.toContain(chat);
      }
      const inv = await call(channelsRoute.GET, "GET", "/x", { key: w.key });
      expect(inv.body.channels.map((c: any) => c.id).sort(), name).toEqual([...w.sees].sort());
    }
  });

  it("detail, resync, labels and assignments of another's channel name no chat", async () => {
    for (const [name, w] of Object.entries(who)) {
      for (const ch of all()) {
        const allowed = w.sees.includes(ch.id);
        const q = { channelId: ch.id, chatId: chat };
        const d = await call(detailRoute.GET, "GET", "/x", { key: w.key, query: q });
        const r = await call(resyncRoute.POST, "POST", "/x", { key: w.key, body: q });
        const l = await call(labelsRoute.GET, "GET", "/x", { key: w.key, query: { channelId: ch.id } });
        const a = await call(assignmentsRoute.GET, "GET", "/x", { key: w.key, query: { channelId: ch.id } });
        if (allowed) {
          expect(d.body.conversation?.key.chatId, name).toBe(chat);
          expect(Object.keys(a.body.assignments), name).toContain(chat);
          expect(Object.keys(a.body.assignments), name).not.toContain(hiddenOnB);
          expect(l.body.labels.length, name).toBe(1);
          continue;
        }
        const expected = ch.id === chT2.id || w.key === t2.key ? "not_found_or_inaccessible" : "channel_forbidden";
        expect(d.body, `${name} detail ${ch.id}`).toMatchObject({ conversation: null, rejection: expected, history: null });
        expect(r.body, name).toMatchObject({ outcome: null, rejection: expected });
        expect(l.body, name).toMatchObject({ labels: [], rejection: expected, source: null });
        expect(a.body, name).toMatchObject({ assignments: {}, rejection: expected });
        for (const body of [d.body, r.body, l.body, a.body]) {
          const text = JSON.stringify(body);
          expect(text).not.toContain(chat);
          expect(text).not.toContain("Etiqueta");
          expect(text).not.toContain("Cliente");
        }
      }
    }
    // Even on the member's own channel, a hidden chat is privacy_restricted and nameless.
    const h = await call(detailRoute.GET, "GET", "/x", { key: bruno.key, query: { channelId: chB.id, chatId: hiddenOnB } });
    expect(h.body).toMatchObject({ conversation: null, rejection: "privacy_restricted" });
    expect(JSON.stringify(h.body)).not.toContain("Escondido");
  });

  it("replies and sends on another's channel are forbidden and reach no gateway", async () => {
    const before = [gwA, gwB, gwT2].map((g) => g.state.sent.length);
    expect(
      (await call(replyRoute.POST, "POST", "/x", { key: ana.key, body: { channelId: chB.id, chatId: chat, body: { kind: "text", text: "oi" } } })).body,
    ).toMatchObject({ status: "forbidden", reason: "channel_forbidden" });
    expect(
      (await call(sendRoute.POST, "POST", "/x", { key: t2.key, body: { channelId: chA.id, chatId: chat, text: "oi", idempotencyKey: "cross-tenant-1" } })).body,
    ).toMatchObject({ status: "forbidden", reason: "not_found_or_inaccessible" });
    expect(
      (await call(sendRoute.POST, "POST", "/x", { key: carla.key, body: { channelId: chA.id, chatId: chat, text: "oi", idempotencyKey: "cross-grant-1" } }))
        .body,
    ).toMatchObject({ status: "forbidden", reason: "channel_forbidden" });
    expect([gwA, gwB, gwT2].map((g) => g.state.sent.length)).toEqual(before);
    // Carla's grant lets her reply on Bruno's channel.
    expect(
      (await call(replyRoute.POST, "POST", "/x", { key: carla.key, body: { channelId: chB.id, chatId: onlyB, body: { kind: "text", text: "Oi Duda" } } })).body,
    ).toMatchObject({ status: "sent" });
  });

  it("events stay in their tenant and never carry a hidden chat, a name or a text", async () => {
    const db = await getDb();
    const rows = await db.select().from(events);
    const msgEvents = rows.filter((e) => e.eventName.startsWith("channel.message."));
    expect(msgEvents.length).toBeGreaterThanOrEqual(5);
    for (const e of msgEvents) {
      const data = e.data as Record<string, unknown>;
      const owner = data.channelId === chT2.id ? t2.tenantId : t1.tenantId;
      expect(e.tenantId).toBe(owner);
      const text = JSON.stringify(e);
      expect(text).not.toContain(hiddenOnB);
      for (const s of ["Cliente", "Duda", "Escondido", "só no canal", "Oi Duda", gwA.url, gwB.url]) expect(text).not.toContain(s);
    }
    const t2Events = await db.select().from(events).where(eq(events.tenantId, t2.tenantId));
    for (const e of t2Events) expect([chA.id, chB.id]).not.toContain((e.data as any)?.channelId);
  });
});
