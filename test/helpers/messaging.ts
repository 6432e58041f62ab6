import * as channelsRoute from "../../app/api/v1/settings/messaging-channels/route";
import * as grantsRoute from "../../app/api/v1/settings/messaging-channels/[id]/grants/route";
import * as privacyRoute from "../../app/api/v1/settings/messaging-channels/[id]/chat-privacy/route";
import type { FakeCloud } from "../fakes/cloud-gateway";
import type { FakeGraph } from "../fakes/meta-graph";
import type { FakeSmtp } from "../fakes/smtp-server";
import { startFakeWaha, type FakeWaha } from "../fakes/waha-gateway";
import { checkResponse } from "./contract";
import { makeMember, makeTenant, type TestTenant } from "./factories";
import { call } from "./http";

export type TestChannel = { id: string; token: string; secret: string };
export type TestMember = { userId: string; key: string };

/**
 * The cast most messaging tests start from: a fake WAHA gateway, a tenant with two brokers (ana and
 * bruno, no grants yet) and another tenant. The caller closes `gw`.
 */
export async function messagingCast() {
  const gw = await startFakeWaha();
  const t = await makeTenant();
  const other = await makeTenant();
  const ana: TestMember = await makeMember(t, "broker");
  const bruno: TestMember = await makeMember(t, "broker");
  return { gw, t, other, ana, bruno };
}

/** A channel created through the settings API as an admin would, with its webhook token and secret. */
async function makeChannel(t: TestTenant, body: Record<string, unknown>): Promise<TestChannel> {
  const res = await call(channelsRoute.POST, "POST", "/api/v1/settings/messaging-channels", { key: t.key, body });
  if (res.status !== 201) throw new Error(`channel create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.webhook.url.split("/").pop(), secret: res.body.webhook.hmacSecret };
}

/** A WAHA channel on the fake gateway. */
export function makeWahaChannel(t: TestTenant, gw: FakeWaha, over: Record<string, unknown> = {}): Promise<TestChannel> {
  return makeChannel(t, {
    name: "WhatsApp Ana",
    transport: "whatsapp",
    provider: "waha",
    baseUrl: gw.url,
    apiKey: gw.apiKey,
    sessionName: gw.session,
    ...over,
  });
}

/** A WhatsApp Cloud channel on the fake Cloud gateway. */
export function makeCloudChannel(t: TestTenant, cloud: FakeCloud, over: Record<string, unknown> = {}): Promise<TestChannel> {
  return makeChannel(t, {
    name: "Cloud",
    transport: "whatsapp_cloud",
    provider: "whatsapp_cloud",
    baseUrl: cloud.url,
    apiKey: cloud.token,
    sessionName: cloud.phoneNumberId,
    ...over,
  });
}

/** An e-mail channel whose SMTP server is the fake one (clear connection, as tests allow private targets). */
export function makeEmailChannel(t: TestTenant, smtp: FakeSmtp, over: Record<string, unknown> = {}): Promise<TestChannel> {
  return makeChannel(t, {
    name: "E-mail Vendas",
    transport: "email",
    address: "vendas@imobiliaria.test",
    smtp: { host: smtp.host, port: smtp.port, tls: "none", user: smtp.user, password: smtp.password },
    ...over,
  });
}

/** An Instagram or Messenger channel on the fake Graph server. */
export function makeMetaChannel(
  t: TestTenant,
  graph: FakeGraph,
  transport: "instagram" | "facebook_messenger",
  over: Record<string, unknown> = {},
): Promise<TestChannel> {
  return makeChannel(t, { name: transport, transport, provider: "meta", baseUrl: graph.url, apiKey: graph.token, sessionName: graph.accountId, ...over });
}

export async function grant(t: TestTenant, channelId: string, memberIds: string[]) {
  const res = await call(grantsRoute.PUT, "PUT", "/x", { key: t.key, params: { id: channelId }, body: { memberIds } });
  if (res.status !== 200) throw new Error(`grant failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function setPrivacy(t: TestTenant, channelId: string, chatId: string, state: string) {
  const res = await call(privacyRoute.PUT, "PUT", "/x", { key: t.key, params: { id: channelId }, body: { chatId, state } });
  if (res.status !== 200) throw new Error(`privacy failed: ${res.status} ${JSON.stringify(res.body)}`);
}

import * as webhookRoute from "../../app/api/webhooks/messaging/[channelToken]/route";
import { getDb } from "../../db/client";
import { processMessagingEvents } from "../../lib/messaging/inbound/process-events";

/** Posts a signed gateway webhook to our route, as the gateway would. */
export async function postWebhook(token: string, wh: { body: string; headers: Record<string, string> }) {
  const url = `http://localhost/api/webhooks/messaging/${token}`;
  const res = await webhookRoute.POST(new Request(url, { method: "POST", headers: wh.headers, body: wh.body }), {
    params: Promise.resolve({ channelToken: token }),
  });
  const text = await res.text();
  await checkResponse(webhookRoute.POST, { method: "POST", url, params: { channelToken: token } }, { status: res.status, headers: res.headers, text });
  return { status: res.status, body: JSON.parse(text) };
}

/** Runs the background processing now (tests run with JOBS_RUNNER=off). */
export async function processNow() {
  return processMessagingEvents(await getDb(), 1000);
}

/** An inbound message from `chatId`, delivered and processed. */
export async function receive(gw: FakeWaha, ch: TestChannel, chatId: string, text: string, extra: Record<string, unknown> = {}) {
  const wh = gw.inbound(ch.secret, chatId, text, extra);
  const res = await postWebhook(ch.token, wh);
  if (res.status !== 200) throw new Error(`webhook failed: ${res.status} ${JSON.stringify(res.body)}`);
  await processNow();
  return wh.msg;
}
