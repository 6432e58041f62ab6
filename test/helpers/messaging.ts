import * as channelsRoute from "../../app/api/v1/settings/messaging-channels/route";
import * as grantsRoute from "../../app/api/v1/settings/messaging-channels/[id]/grants/route";
import * as privacyRoute from "../../app/api/v1/settings/messaging-channels/[id]/chat-privacy/route";
import type { FakeWaha } from "../fakes/waha-gateway";
import type { TestTenant } from "./factories";
import { call } from "./http";

export type TestChannel = { id: string; token: string; secret: string };

/** A WAHA channel on the fake gateway, created through the settings API as an admin would. */
export async function makeWahaChannel(t: TestTenant, gw: FakeWaha, over: Record<string, unknown> = {}): Promise<TestChannel> {
  const res = await call(channelsRoute.POST, "POST", "/api/v1/settings/messaging-channels", {
    key: t.key,
    body: { name: "WhatsApp Ana", transport: "whatsapp", provider: "waha", baseUrl: gw.url, apiKey: gw.apiKey, sessionName: gw.session, ...over },
  });
  if (res.status !== 201) throw new Error(`channel create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.webhook.url.split("/").pop(), secret: res.body.webhook.hmacSecret };
}

export async function grant(t: TestTenant, channelId: string, memberIds: string[]) {
  const res = await call(grantsRoute.PUT, "PUT", "/x", { key: t.key, params: { id: channelId }, body: { memberIds } });
  if (res.status !== 200) throw new Error(`grant failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function setPrivacy(t: TestTenant, channelId: string, chatId: string, state: string) {
  const res = await call(privacyRoute.PUT, "PUT", "/x", { key: t.key, params: { id: channelId }, body: { chatId, state } });
  if (res.status !== 200) throw new Error(`privacy failed: ${res.status} ${JSON.stringify(res.body)}`);
}
