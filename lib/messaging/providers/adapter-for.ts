import type { MessagingChannelRow } from "../../../db/schema";
import { emailAdapter } from "../email/adapter";
import { unseal } from "../secret-box";
import { metaAdapter } from "./meta-graph";
import { cloudAdapter } from "./whatsapp-cloud";
import type { Credentials, ProviderAdapter } from "./types";
import { wahaAdapter } from "./waha";
import { webChatAdapter } from "../web-chat/adapter";

export function credentialsOf(channel: MessagingChannelRow): Credentials {
  return JSON.parse(unseal(channel.credentials)) as Credentials;
}

/** The adapter of a channel's provider, with its credentials opened only for the call. */
export function adapterFor(channel: MessagingChannelRow): ProviderAdapter {
  if (channel.provider === "web_chat") return webChatAdapter(channel);
  const creds = credentialsOf(channel);
  if (channel.provider === "whatsapp_cloud") return cloudAdapter(channel.baseUrl, creds);
  if (channel.provider === "smtp") return emailAdapter(channel, creds);
  if (channel.provider === "meta") return metaAdapter(channel.baseUrl, creds);
  return wahaAdapter(channel.baseUrl, creds);
}
