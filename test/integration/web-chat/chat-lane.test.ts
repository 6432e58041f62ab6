/**
 * Visitors' chat messages on the server's direct lane (lib/server/chat-lane.ts), as `npm start`
 * serves them: a real Node HTTP server with our listener, whose stand-in for Next.js answers 299.
 * The lane answers message posts with the routes' own functions (stored before the 201, the same
 * errors) and leaves every other request to the listener behind it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as messagesRoute from "../../../app/api/sites/[siteId]/chat/messages/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import { getDb } from "../../../db/client";
import { messagingMessages } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { requestListener } from "../../../lib/server/web-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const NEXT = 299;
let server: http.Server;
let base: string;
let t: TestTenant;
let siteId: string;
let channelId: string;

beforeAll(async () => {
  server = http.createServer(
    requestListener((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(NEXT, { "content-type": "text/plain" }).end("next"));
    }),
  );
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await makeTenant();
  const channel = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Chat", transport: "web_chat" } });
  channelId = channel.body.id;
  siteId = (await makeSite(t, { chat: { channelId } })).id;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
});

const open = async () =>
  (
    await call(sessionsRoute.POST, "POST", `/api/sites/${siteId}/chat/sessions`, {
      params: { siteId },
      body: {},
      headers: { [CLIENT_ADDRESS_HEADER]: "10.11.0.1" },
    })
  ).body as { sessionToken: string; conversationKey: { chatId: string } };
const lanePost = (path: string, token: string, body: string) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body });

describe("the chat message lane", () => {
  it("stores a visitor's message before its 201 and answers as the route does: replay, 409, 400, 401", async () => {
    const s = await open();
    const path = `/api/sites/${siteId}/chat/messages`;
    const first = await lanePost(path, s.sessionToken, JSON.stringify({ text: "Olá pela via direta", clientMessageId: "lane-1" }));
    expect(first.status).toBe(201);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const body = await first.json();
    expect(body.message).toMatchObject({ direction: "inbound", text: "Olá pela via direta", clientMessageId: "lane-1" });
    const rows = await (await getDb()).select().from(messagingMessages).where(eq(messagingMessages.chatId, s.conversationKey.chatId));
    expect(rows.map((r) => r.id)).toEqual([body.message.id]);
    const again = await lanePost(path, s.sessionToken, JSON.stringify({ text: "Olá pela via direta", clientMessageId: "lane-1" }));
    expect([again.status, again.headers.get("idempotent-replayed"), (await again.json()).message.id]).toEqual([201, "true", body.message.id]);
    expect((await lanePost(path, s.sessionToken, JSON.stringify({ text: "outro", clientMessageId: "lane-1" }))).status).toBe(409);
    expect((await lanePost(path, s.sessionToken, "{not json")).status).toBe(400);
    expect((await lanePost(path, `wcs_${"B".repeat(43)}`, JSON.stringify({ text: "x", clientMessageId: "y" }))).status).toBe(401);
    // The same answer in-process through the route (as Next.js would call it) for the same post.
    const viaRoute = await call(messagesRoute.POST, "POST", path, {
      params: { siteId },
      body: { text: "Olá pela via direta", clientMessageId: "lane-1" },
      headers: { authorization: `Bearer ${s.sessionToken}`, [CLIENT_ADDRESS_HEADER]: "10.11.0.2" },
    });
    expect([viaRoute.status, viaRoute.body.message.id]).toEqual([201, body.message.id]);
  });

  it("takes only message posts: reads, other shapes and other paths go on to Next.js", async () => {
    const s = await open();
    const auth = { authorization: `Bearer ${s.sessionToken}` };
    expect((await fetch(`${base}/api/sites/${siteId}/chat/messages`, { headers: auth })).status).toBe(NEXT);
    expect((await lanePost(`/api/sites/${siteId}/chat/messages/`, s.sessionToken, "{}")).status).toBe(NEXT);
    expect((await lanePost(`/api/sites/${siteId}/chat/sessions`, s.sessionToken, "{}")).status).toBe(NEXT);
    expect((await lanePost(`/api/sites/x${siteId.slice(1)}/chat/messages`, s.sessionToken, "{}")).status).toBe(NEXT);
    // A share link's post is the lane's too: an unknown link is the route's 404.
    const share = await lanePost(`/api/sites/share/${"a".repeat(32)}/chat/messages`, s.sessionToken, JSON.stringify({ text: "x", clientMessageId: "y" }));
    expect(share.status).toBe(404);
  });

  it("answers a member's reply as the messaging route does: the ack, 401 without a key, other methods to Next.js", async () => {
    const s = await open();
    const posted = await lanePost(`/api/sites/${siteId}/chat/messages`, s.sessionToken, JSON.stringify({ text: "Alguém aí?", clientMessageId: "q-1" }));
    expect(posted.status).toBe(201);
    const key = { channelId, chatId: s.conversationKey.chatId };
    const reply = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}/api/v1/messaging/reply`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const ok = await reply({ "x-api-key": t.key }, { ...key, body: { kind: "text", text: "Estou aqui!" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const ack = await ok.json();
    expect(ack).toMatchObject({ status: "sent", reason: null });
    const rows = await (await getDb()).select().from(messagingMessages).where(eq(messagingMessages.chatId, s.conversationKey.chatId));
    expect(rows.find((r) => r.direction === "outbound")).toMatchObject({ id: ack.messageId, text: "Estou aqui!" });
    const anonymous = await reply({}, { ...key, body: { kind: "text", text: "x" } });
    expect([anonymous.status, anonymous.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="api"']);
    expect((await reply({ "x-api-key": t.key }, { ...key, body: { kind: "text", text: "" } })).status).toBe(400);
    expect((await fetch(`${base}/api/v1/messaging/reply`, { headers: { "x-api-key": t.key } })).status).toBe(NEXT);
    expect((await reply({ "x-api-key": t.key }, {})).status).not.toBe(NEXT);
    expect((await fetch(`${base}/api/v1/messaging/reply/`, { method: "POST", headers: { "x-api-key": t.key }, body: "{}" })).status).toBe(NEXT);
  });
});
