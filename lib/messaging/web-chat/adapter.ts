import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { messagingConversations, messagingLabels, type MessagingChannelRow } from "../../../db/schema";
import { GatewayError } from "../providers/gateway-http";
import type { ProviderAdapter, ProviderMessage } from "../providers/types";
import { messagesBefore, storeOutbound } from "./store";

/**
 * The web chat's "provider" is the service itself: sending stores the message (and announces it to
 * the visitor's stream after the commit), history reads the store, labels live only in our tables
 * (the label verbs write them after the adapter agrees). Everything answers at once: no gateway.
 */
export function webChatAdapter(channel: MessagingChannelRow): ProviderAdapter {
  return {
    supportsHistory: true,
    supportsTemplates: false,
    supportsLabels: true,
    status: async () => "connected",
    async history(chatId, opts) {
      const before = opts.lteSeconds === undefined ? undefined : new Date((opts.lteSeconds + 1) * 1000);
      const rows = await messagesBefore(await getDb(), channel.id, chatId, before, opts.limit);
      return rows.map(
        (r): ProviderMessage => ({
          id: r.id,
          timestamp: Math.floor(r.createdAt.getTime() / 1000),
          fromMe: r.direction === "outbound",
          text: r.text,
          pushName: null,
          type: r.messageType,
          media: null,
        }),
      );
    },
    async sendText(chatId, text) {
      // Read before any lock. The send gates let only stored conversations through (a visitor must have opened it).
      const [c] = await (await getDb())
        .select({ id: messagingConversations.id })
        .from(messagingConversations)
        .where(and(eq(messagingConversations.channelId, channel.id), eq(messagingConversations.chatId, chatId)))
        .limit(1);
      if (!c) throw new GatewayError("not_found", "no web-chat conversation with this id");
      // Stored by `recordSent`'s tenant transaction with the send record and the event: one
      // transaction (one wait for the tenant lock) per reply instead of two.
      const messageId = randomUUID();
      return { messageId, keep: (tx) => storeOutbound(tx, channel, chatId, { id: messageId, text }) };
    },
    async sendTemplate() {
      throw new GatewayError("http", "web chat has no templates");
    },
    async labels() {
      const rows = await (await getDb()).select().from(messagingLabels).where(eq(messagingLabels.channelId, channel.id));
      return rows.map((r) => ({ id: r.labelId, name: r.name, color: r.color }));
    },
    async chatLabels(chatId) {
      const [c] = await (await getDb())
        .select({ labels: messagingConversations.labels })
        .from(messagingConversations)
        .where(and(eq(messagingConversations.channelId, channel.id), eq(messagingConversations.chatId, chatId)))
        .limit(1);
      return c?.labels ?? [];
    },
    setChatLabels: async () => {},
    createLabel: async (label) => ({ id: randomUUID(), name: label.name, color: label.colorHex ?? null }),
    deleteLabel: async () => {},
    lidToPhone: async () => null,
    phoneToLid: async () => null,
  };
}
