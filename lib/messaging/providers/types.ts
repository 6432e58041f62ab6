import type { Tx } from "../../../db/client";
import type { SmtpSettings } from "../email/smtp-send";

/** Connection-state enum of spec 1 §2.5. */
export const CONNECTION_STATES = ["connected", "awaiting_auth", "disabled", "error", "expired", "draft"] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

export const TRANSPORTS = ["whatsapp", "whatsapp_cloud", "instagram", "facebook_messenger", "tiktok", "email", "web_chat", "voip"] as const;
export type Transport = (typeof TRANSPORTS)[number];

export const PROVIDERS = ["waha", "whatsapp_cloud", "web_chat", "smtp", "meta"] as const;
export type Provider = (typeof PROVIDERS)[number];

export type MediaDescriptor = { kind: string; mimeType: string | null; available: boolean };

/** One history message as the adapter normalises it; `timestamp` in whole seconds, as gateways give it. */
export type ProviderMessage = {
  id: string;
  timestamp: number;
  fromMe: boolean;
  text: string | null;
  pushName: string | null;
  type: string;
  media: MediaDescriptor | null;
};

export type ProviderLabel = { id: string; name: string; color: string | null };

/** A gateway webhook turned into what the service acts on; anything else is ignored after storing. */
export type InboundEvent =
  | { type: "message"; chatId: string; fromMe: boolean; message: ProviderMessage }
  | { type: "ack"; messageId: string }
  | { type: "session.status"; state: ConnectionState }
  | { type: "label.upsert"; label: ProviderLabel; deleted?: boolean }
  | { type: "label.chat"; chatId: string; labelId: string; added: boolean };

/**
 * A message the provider accepted. `keep` writes what the service itself stores of it (e-mail's
 * history row): the send verb runs it in the transaction that records the sent message, its
 * conversation and event, so both are stored or neither is.
 */
export type SentMessage = { messageId: string; keep?: (tx: Tx) => Promise<void> };

/** `apiKey`/`sessionName`: the gateway key and session (for e-mail: the SMTP password and the address, with `smtp`). */
export type Credentials = { apiKey: string; sessionName: string; smtp?: SmtpSettings };

/**
 * What the service needs from a gateway. New providers (Instagram, e-mail) implement this; the
 * gates and conversations never see a provider's URL, token or payload.
 */
export interface ProviderAdapter {
  readonly supportsHistory: boolean;
  readonly supportsTemplates: boolean;
  status(signal: AbortSignal): Promise<ConnectionState>;
  /** Newest first; `lteSeconds` keeps messages at or before that second (inclusive, as WAHA's filter). */
  history(chatId: string, opts: { limit: number; lteSeconds?: number }, signal: AbortSignal): Promise<ProviderMessage[]>;
  sendText(chatId: string, text: string, signal: AbortSignal): Promise<SentMessage>;
  sendTemplate(chatId: string, template: { name: string; language: string }, signal: AbortSignal): Promise<SentMessage>;
  labels(signal: AbortSignal): Promise<ProviderLabel[]>;
  chatLabels(chatId: string, signal: AbortSignal): Promise<string[]>;
  /** The phone form (`<digits>@c.us`) of an `@lid` id, or null while the gateway does not know it. */
  lidToPhone(lid: string, signal: AbortSignal): Promise<string | null>;
  /** The `@lid` id of a phone-form chat id, or null while the gateway does not know it (resync). */
  phoneToLid(chatId: string, signal: AbortSignal): Promise<string | null>;
  /**
   * Label mutation (the tool interface's label verbs; REST only reads labels). `setChatLabels`
   * replaces a chat's labels with the given ids; `supportsLabels` false means every call throws.
   */
  readonly supportsLabels: boolean;
  setChatLabels(chatId: string, labelIds: string[], signal: AbortSignal): Promise<void>;
  createLabel(label: { name: string; colorHex?: string }, signal: AbortSignal): Promise<ProviderLabel>;
  deleteLabel(labelId: string, signal: AbortSignal): Promise<void>;
}
