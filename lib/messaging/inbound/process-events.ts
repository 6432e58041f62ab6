import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import {
  messagingChannels,
  messagingChatPrivacy,
  messagingConversations,
  messagingInboundEvents,
  messagingLabels,
  messagingSeenMessages,
  type MessagingChannelRow,
} from "../../../db/schema";
import { inTenantTransaction, settleAll } from "../../../db/transaction";
import { onStoredMessage, triggerReads } from "../../agents/triggers";
import { optOutHandleOfChat } from "../opt-outs";
import { logger } from "../../log/logger";
import { chatKind, maskHandle } from "../chat-id";
import { effectivePrivacy, privacyStateOf } from "../chat-privacy";
import { recordMessageEvent } from "../message-events";
import { adapterFor } from "../providers/adapter-for";
import type { InboundEvent, ProviderMessage } from "../providers/types";
import { parseEmailEvent } from "../email/receive-email";
import { parseMetaWebhook } from "../providers/meta-graph";
import { parseWahaWebhook } from "../providers/waha";
import { parseCloudWebhook } from "../providers/whatsapp-cloud";
import { errorText } from "../../errors/error-text";
import { PACED_YIELD_MS, yieldToPacedWork } from "../../jobs/paced-work";
import { storableJson } from "../../util/storable-text";

const STALE_CLAIM_SECONDS = 120;
/** A webhook whose processing failed is tried again (after a claim's stale time) up to this many times in all. */
export const MAX_ATTEMPTS = 5;
const PREVIEW_CHARS = 200;

type Claimed = { id: string; tenant_id: string; channel_id: string; body: string; attempts: number };

/** Claims up to `limit` stored webhooks, oldest first, and processes each in its tenant's transaction. */
export async function processMessagingEvents(db: Db, limit: number): Promise<{ claimed: number; processed: number; failed: number }> {
  const claimed = rowsOf<Claimed & { received_at: string }>(
    await db.execute(sql`
      update messaging_inbound_events set status = 'processing', claimed_at = now(), attempts = attempts + 1
      where id in (
        select id from messaging_inbound_events
        where status = 'received' or (status = 'processing' and claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by received_at
        limit ${limit}
        for update skip locked)
      returning id, tenant_id, channel_id, body, attempts, received_at`),
  ).sort((a, b) => String(a.received_at).localeCompare(String(b.received_at)));
  let processed = 0;
  let failed = 0;
  const channelCache = new Map<string, MessagingChannelRow | null>();
  // A round waits for paced work (lib/jobs/paced-work.ts) at most `PACED_YIELD_MS` in all, before
  // its webhooks: a burst of chats (each one an agent's trigger) goes after a burst of leads.
  let mayYield = PACED_YIELD_MS;
  for (const row of claimed) {
    if (mayYield > 0) mayYield -= await yieldToPacedWork(mayYield);
    try {
      if (!channelCache.has(row.channel_id)) {
        const [c] = await db.select().from(messagingChannels).where(eq(messagingChannels.id, row.channel_id)).limit(1);
        channelCache.set(row.channel_id, c ?? null);
      }
      const channel = channelCache.get(row.channel_id);
      if (!channel) continue; // deleted with its events (cascade)
      await processOne(db, channel, row);
      processed++;
    } catch (err) {
      failed++;
      // Without the query's parameters (personal data; a NUL among them made this update fail too).
      const error = errorText(err);
      // A body that is not JSON never will be; anything else (a database hiccup, a deploy) may pass
      // next time: the row stays claimed, so the stale-claim rule retries it after STALE_CLAIM_SECONDS.
      const final = err instanceof SyntaxError || Number(row.attempts) >= MAX_ATTEMPTS;
      logger().warn({ err, eventId: row.id, attempts: row.attempts, final }, "messaging webhook processing failed");
      await db
        .update(messagingInboundEvents)
        .set(final ? { status: "failed", error, processedAt: new Date() } : { status: "processing", error, claimedAt: new Date() })
        .where(eq(messagingInboundEvents.id, row.id));
    }
  }
  return { claimed: claimed.length, processed, failed };
}

function parse(channel: MessagingChannelRow, body: string): InboundEvent[] {
  // A provider's junk (a NUL in a chat id, a lone surrogate in a name) is cleaned, not fatal: the
  // event is still a message, and PostgreSQL cannot store those characters.
  const json = storableJson(JSON.parse(body) as Record<string, unknown>);
  if (channel.provider === "smtp") return parseEmailEvent(json);
  if (channel.provider === "meta") return parseMetaWebhook(json);
  return channel.provider === "whatsapp_cloud" ? parseCloudWebhook(json) : parseWahaWebhook(json);
}

async function processOne(db: Db, channel: MessagingChannelRow, row: Claimed): Promise<void> {
  const events = parse(channel, row.body);
  // `@lid` ids become the phone form when the mapping is known: stored first, else asked of the gateway (outside the transaction).
  const lids = new Map<string, string | null>();
  for (const e of events) {
    const chatId = e.type === "message" || e.type === "label.chat" ? e.chatId : null;
    if (chatId?.endsWith("@lid") && !lids.has(chatId)) lids.set(chatId, await resolveLid(db, channel, chatId));
  }
  await inTenantTransaction(db, channel.tenantId, async (tx) => {
    // The row is marked processed first (the transaction makes it so only with the rest): that
    // statement travels with the first message's, one round trip less under the tenant's lock.
    const done = tx
      .update(messagingInboundEvents)
      .set({ status: "processed", processedAt: new Date(), error: null })
      .where(eq(messagingInboundEvents.id, row.id));
    await settleAll([
      done,
      (async () => {
        for (const e of events) await apply(tx, channel, e, lids);
      })(),
    ]);
  });
}

async function resolveLid(db: DbOrTx, channel: MessagingChannelRow, lid: string): Promise<string | null> {
  const [known] = await db
    .select({ chatId: messagingConversations.chatId })
    .from(messagingConversations)
    .where(and(eq(messagingConversations.channelId, channel.id), eq(messagingConversations.lid, lid)))
    .limit(1);
  if (known && !known.chatId.endsWith("@lid")) return known.chatId;
  try {
    return await adapterFor(channel).lidToPhone(lid, AbortSignal.timeout(2000));
  } catch {
    return null; // unknown for now: kept under the @lid id until a later message or a resync maps it
  }
}

async function apply(tx: DbOrTx, channel: MessagingChannelRow, e: InboundEvent, lids: Map<string, string | null>): Promise<void> {
  switch (e.type) {
    case "message":
      return applyMessage(tx, channel, e.chatId, lids.get(e.chatId) ?? null, e.message);
    case "session.status":
      await tx.update(messagingChannels).set({ connectionState: e.state, updatedAt: new Date() }).where(eq(messagingChannels.id, channel.id));
      return;
    case "label.upsert":
      if (e.deleted) {
        await tx.delete(messagingLabels).where(and(eq(messagingLabels.channelId, channel.id), eq(messagingLabels.labelId, e.label.id)));
        return;
      }
      await tx
        .insert(messagingLabels)
        .values({ tenantId: channel.tenantId, channelId: channel.id, labelId: e.label.id, name: e.label.name, color: e.label.color })
        .onConflictDoUpdate({ target: [messagingLabels.channelId, messagingLabels.labelId], set: { name: e.label.name, color: e.label.color } });
      return;
    case "label.chat": {
      const chatId = e.chatId.endsWith("@lid") ? (lids.get(e.chatId) ?? e.chatId) : e.chatId;
      const change = e.added
        ? sql`(select coalesce(jsonb_agg(distinct v), '[]'::jsonb) from jsonb_array_elements_text(${messagingConversations.labels} || jsonb_build_array(${e.labelId}::text)) v)`
        : sql`(select coalesce(jsonb_agg(v), '[]'::jsonb) from jsonb_array_elements_text(${messagingConversations.labels}) v where v <> ${e.labelId})`;
      await tx
        .update(messagingConversations)
        .set({ labels: change })
        .where(
          and(
            eq(messagingConversations.channelId, channel.id),
            sql`(${messagingConversations.chatId} = ${chatId} or ${messagingConversations.lid} = ${e.chatId})`,
          ),
        );
      return;
    }
    case "ack":
      return;
  }
}

function previewOf(m: ProviderMessage): string {
  if (m.text) return m.text.slice(0, PREVIEW_CHARS);
  return m.media ? `[${m.media.kind}]` : "";
}

/**
 * One message into its conversation record (created on first sight), once per message id. Events
 * only for chats whose privacy is open; a chat without a record on a whitelist channel is hidden,
 * so its messages raise nothing.
 */
async function applyMessage(tx: DbOrTx, channel: MessagingChannelRow, rawChatId: string, phoneForm: string | null, m: ProviderMessage): Promise<void> {
  const fresh = await tx.insert(messagingSeenMessages).values({ channelId: channel.id, messageId: m.id }).onConflictDoNothing().returning();
  if (!fresh.length) return;
  const lid = rawChatId.endsWith("@lid") ? rawChatId : null;
  const chatId = phoneForm ?? rawChatId;
  if (lid && phoneForm) {
    // The chat first arrived under its @lid id: it now takes the phone form, unless that record exists already.
    await tx.execute(sql`
      update messaging_conversations set chat_id = ${phoneForm}, lid = ${lid}, handle_masked = ${maskHandle(phoneForm)}, privacy_state = ${privacyStateOf(channel.id, phoneForm)}
      where channel_id = ${channel.id} and chat_id = ${lid}
        and not exists (select 1 from messaging_conversations c2 where c2.channel_id = ${channel.id} and c2.chat_id = ${phoneForm})`);
  }
  const at = new Date(m.timestamp * 1000);
  const inbound = !m.fromMe;
  const preview = previewOf(m);
  const conversation = tx
    .insert(messagingConversations)
    .values({
      tenantId: channel.tenantId,
      channelId: channel.id,
      chatId,
      lid,
      privacyState: privacyStateOf(channel.id, chatId),
      displayName: inbound ? m.pushName : null,
      handleMasked: maskHandle(chatId),
      kind: chatKind(chatId),
      lastActivityAt: at,
      lastPreview: preview,
      lastFromMe: m.fromMe,
      lastMessageId: m.id,
      unreadCount: inbound ? 1 : 0,
      awaitingReply: inbound,
    })
    .onConflictDoUpdate({
      target: [messagingConversations.channelId, messagingConversations.chatId],
      set: {
        lid: sql`coalesce(${messagingConversations.lid}, excluded.lid)`,
        displayName: inbound && m.pushName ? m.pushName : sql`${messagingConversations.displayName}`,
        // Only a newer message moves the last activity; an older one arriving late counts as unread only.
        lastActivityAt: sql`greatest(${messagingConversations.lastActivityAt}, excluded.last_activity_at)`,
        lastPreview: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.last_preview else ${messagingConversations.lastPreview} end`,
        lastFromMe: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.last_from_me else ${messagingConversations.lastFromMe} end`,
        lastMessageId: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.last_message_id else ${messagingConversations.lastMessageId} end`,
        // A message of ours means the chat was read and answered on the phone.
        unreadCount: inbound ? sql`${messagingConversations.unreadCount} + 1` : sql`0`,
        awaitingReply: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.awaiting_reply else ${messagingConversations.awaitingReply} end`,
      },
    });
  const privacy = tx
    .select({ state: messagingChatPrivacy.state })
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.channelId, channel.id), eq(messagingChatPrivacy.chatId, chatId)))
    .limit(1);
  // The conversation, its privacy and what the agents' trigger reads go together: one round trip.
  const [, [p], reads] = await settleAll([
    conversation,
    privacy,
    triggerReads(tx, { tenantId: channel.tenantId, channelId: channel.id, chatId, fromMe: m.fromMe }),
  ] as const);
  const open = effectivePrivacy(channel.privacyMode, p?.state) === "open";
  // Agents: an inbound message may start one; a message typed on the phone pauses them there.
  // The agents' work and the message's event do not depend on each other: sent together too.
  await settleAll([
    onStoredMessage(
      tx,
      {
        tenantId: channel.tenantId,
        channelId: channel.id,
        chatId,
        optOutHandle: optOutHandleOfChat(channel, chatId),
        messageId: m.id,
        fromMe: m.fromMe,
        open,
        text: m.text,
        at,
      },
      reads,
    ),
    open ? recordMessageEvent(tx, channel, chatId, m, inbound ? "inbound" : "outbound") : null,
  ]);
}
