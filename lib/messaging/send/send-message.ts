/**
 * The send verb of messaging: every outbound message (REST reply and send, and the tool
 * interface's scheduled sends at fire time) goes through `sendMessage(ctx, input)`, so one gate
 * chain and one set of adapters decide and carry it. Stable signatures:
 *
 *   evaluateSendGates(ctx: MemberCtx, { channelId, chatId, mode: "reply" | "send" }): Promise<GateResult>
 *     (./gates.ts) the read-only gates in order: channel_access_grant, chat_privacy_mode,
 *     outreach_safety. Call it to preview a send (or to re-check before scheduling).
 *   sendMessage(ctx: MemberCtx, input: SendInput): Promise<SendAck>
 *     input = { mode: "reply" | "send", channelId, chatId,
 *               content: { kind: "text", text } | { kind: "listing_cards", listingIds } | { kind: "template", templateId },
 *               dealId?, idempotencyKey? }
 *     The actor is a member (the API key's member; `ctx.actor.keyId` scopes idempotency keys).
 *     Runs the gates, then the channel's capabilities (templates only where supported, else
 *     `channel_send_unsupported`; a connected channel), then `send_idempotency` when a key is given
 *     (a resend answers the first ack with `idempotent: true` and sends nothing, also when two
 *     arrive at once), then sends through the channel's adapter within MESSAGING_SEND_TIMEOUT_MS,
 *     records `authorId` and the conversation, and emits `channel.message.sent` (./record-sent.ts).
 *     Answers the ack of spec 1 §2.5 (./ack.ts); throws only for bad input (400) and a reused key
 *     with another body (409 `idempotency_key_reused`).
 *   replyMessage / sendProactive: the REST bodies of POST /messaging/reply and /send, mapped onto it.
 */
import { z } from "zod";
import { type SQL, and, eq } from "drizzle-orm";
import { deals } from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { dealAccessWhere } from "../../deals/access";
import { invalid } from "../../errors/domain-errors";
import { pauseOnHumanReply } from "../../agents/pauses";
import { config } from "../../config";
import { ChatIdSchema } from "../chat-id";
import { adapterFor } from "../providers/adapter-for";
import { GatewayError } from "../providers/gateway-http";
import type { ProviderAdapter } from "../providers/types";
import { ackPolicy, type AckReason, type AckStatus, type RiskTier, type SendAck } from "./ack";
import { evaluateSendGates } from "./gates";
import { claimSendKey, completeSendKey, completeSendKeySql, releaseSendKey, requestHash } from "./idempotency";
import { prepareContent, type OutboundPart } from "./render";
import { recordSent, type SentPart } from "./record-sent";

const lower = (v: string) => v.toLowerCase();
const Uuid = z.uuid().transform(lower);
export const IdempotencyKeySchema = z.string().min(8).max(200).meta({ description: "8 to 200 characters; a resend with the same key does not fire again." });
const TextSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((v) => v.trim().length > 0, "must not be blank");

export const ContentSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("text"), text: TextSchema }),
  z.strictObject({ kind: z.literal("listing_cards"), listingIds: z.array(Uuid).min(1).max(10) }),
  z.strictObject({ kind: z.literal("template"), templateId: Uuid }),
]);

export const SendInputSchema = z.strictObject({
  mode: z.enum(["reply", "send"]),
  channelId: Uuid,
  chatId: ChatIdSchema,
  content: ContentSchema,
  dealId: Uuid.optional(),
  idempotencyKey: IdempotencyKeySchema.optional(),
});
export type SendInput = z.input<typeof SendInputSchema>;

/** `POST /messaging/reply` body (spec 1 §4.3). */
export const ReplyBodySchema = z
  .strictObject({
    channelId: Uuid.meta({ description: "A channel the key's member may use." }),
    chatId: ChatIdSchema,
    body: z
      .discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("text"), text: TextSchema.meta({ description: "1 to 4096 characters." }) }),
        z.strictObject({
          kind: z.literal("listing_cards"),
          listingIds: z.array(Uuid).min(1).max(10).meta({ description: "1 to 10 listings; each becomes one message with its public link." }),
        }),
      ])
      .meta({ description: "`{kind:'text', text}` or `{kind:'listing_cards', listingIds}`." }),
    idempotencyKey: IdempotencyKeySchema.optional(),
  })
  .meta({ id: "MessagingReply" });

/** `POST /messaging/send` body: exactly one of `text` or `templateId`. */
export const SendBodySchema = z
  .strictObject({
    channelId: Uuid.meta({ description: "A channel the key's member may use." }),
    chatId: ChatIdSchema,
    text: TextSchema.optional().meta({ description: "1 to 4096 characters (exactly one of `text`, `templateId`)." }),
    templateId: Uuid.optional().meta({ description: "An approved template of the channel; only on channels that support templates." }),
    dealId: Uuid.optional().meta({ description: "Links the conversation to this deal." }),
    idempotencyKey: IdempotencyKeySchema,
  })
  .superRefine((v, c) => {
    if ((v.text === undefined) === (v.templateId === undefined))
      c.addIssue({ code: "custom", path: ["text"], message: "send exactly one of `text` or `templateId`" });
  })
  .meta({ id: "MessagingSend" });

export async function replyMessage(ctx: MemberCtx, body: unknown): Promise<SendAck> {
  const b = ReplyBodySchema.parse(body);
  return sendMessage(ctx, { mode: "reply", channelId: b.channelId, chatId: b.chatId, content: b.body, idempotencyKey: b.idempotencyKey });
}

export async function sendProactive(ctx: MemberCtx, body: unknown): Promise<SendAck> {
  const b = SendBodySchema.parse(body);
  const content = b.text !== undefined ? { kind: "text" as const, text: b.text } : { kind: "template" as const, templateId: b.templateId! };
  return sendMessage(ctx, { mode: "send", channelId: b.channelId, chatId: b.chatId, content, dealId: b.dealId, idempotencyKey: b.idempotencyKey });
}

export async function sendMessage(ctx: MemberCtx, raw: SendInput): Promise<SendAck> {
  const input = SendInputSchema.parse(raw);
  const tier: RiskTier = input.mode === "reply" ? "reply" : "proactive";
  const keyed = input.idempotencyKey !== undefined;
  const ack = (status: AckStatus, reason: AckReason | null, handle: string | null, messageId: string | null = null, idempotent = false): SendAck => ({
    policy: ackPolicy(tier, keyed),
    status,
    messageId,
    handle,
    reason,
    idempotent,
  });

  if (input.dealId) {
    const [d] = await ctx.db
      .select({ id: deals.id })
      .from(deals)
      .where(and(eq(deals.id, input.dealId), eq(deals.tenantId, ctx.tenantId), dealAccessWhere(ctx.actor)))
      .limit(1);
    if (!d) throw invalid(`body field \`dealId\`: no deal ${input.dealId} that this key may use.`);
  }

  const gates = await evaluateSendGates(ctx, { channelId: input.channelId, chatId: input.chatId, mode: input.mode });
  if (!gates.ok) return ack(gates.status, gates.reason, gates.handle);
  const { channel, chatId, handle } = gates;

  const adapter: ProviderAdapter = adapterFor(channel);
  const prepared = await prepareContent(ctx, { id: channel.id, supportsTemplates: adapter.supportsTemplates }, input.content, input.dealId);
  if (!prepared.ok) return ack("rejected", prepared.reason, handle);
  if (channel.connectionState !== "connected") return ack("rejected", "channel_not_connected", handle);

  const scope = keyed ? { tenantId: ctx.tenantId, apiKeyId: ctx.actor.keyId, key: input.idempotencyKey! } : null;
  if (scope) {
    const { idempotencyKey: _k, ...rest } = input;
    const claim = await claimSendKey(ctx.db, scope, requestHash(rest), () => ack("rejected", "channel_timeout", handle));
    if (claim.kind === "replay") return { ...claim.ack, idempotent: true };
  }

  let answer: SendAck;
  let release = false;
  let acked = false; // the ack was stored with the record
  try {
    const built = await prepared.build();
    if (!Array.isArray(built)) {
      answer = ack("rejected", built.failed, handle);
      release = true;
    } else {
      const { sent, failure } = await deliver(adapter, chatId, built);
      if (!failure) answer = ack("sent", null, handle, sent[0]?.messageId ?? null);
      else if (sent.length) answer = ack("rejected", "partially_sent", handle, sent[0].messageId);
      else {
        answer = ack("rejected", failure, handle);
        release = failure === "channel_unreachable";
      }
      // An agent's ack is stored by the statement that records its send, when it is one (a
      // statement and a socket write less per reply: issue 34). Not a member's: the pause below
      // comes between the record and the ack, and a failure there releases the key, as before.
      const key = scope && ctx.actor.agentId && !release ? scope : null;
      const keyWithRecord = key ? (locked: SQL) => completeSendKeySql(key, answer, locked) : undefined;
      const recorded = await recordSent(ctx.db, { channel, chatId, authorId: ctx.actor.userId, dealId: input.dealId, sent, also: keyWithRecord });
      acked = recorded.alsoWritten;
      // A member answering in the chat takes it over from any agent there.
      if (sent.length && !ctx.actor.agentId) await pauseOnHumanReply(ctx.db, ctx.tenantId, channel.id, chatId);
    }
  } catch (err) {
    if (scope && !acked) await releaseSendKey(ctx.db, scope);
    throw err;
  }
  if (scope && !acked) {
    if (release) await releaseSendKey(ctx.db, scope);
    else await completeSendKey(ctx.db, scope, answer);
  }
  return answer;
}

/**
 * Sends the parts in order within one budget. A gateway that refused (an HTTP error, a refused
 * connection) sent nothing; one that did not answer in time may have sent: the caller keeps the
 * idempotency key used then, so a resend cannot make a second copy.
 */
async function deliver(adapter: ProviderAdapter, chatId: string, parts: OutboundPart[]): Promise<{ sent: SentPart[]; failure: AckReason | null }> {
  const signal = AbortSignal.timeout(config().MESSAGING_SEND_TIMEOUT_MS);
  const sent: SentPart[] = [];
  for (const part of parts) {
    try {
      const r =
        part.kind === "text"
          ? await adapter.sendText(chatId, part.text, signal)
          : await adapter.sendTemplate(chatId, { name: part.name, language: part.language }, signal);
      sent.push({ messageId: r.messageId, part, at: new Date(), keep: r.keep });
    } catch (err) {
      const surelyNotSent = err instanceof GatewayError && err.kind !== "timeout";
      return { sent, failure: surelyNotSent ? "channel_unreachable" : "channel_timeout" };
    }
  }
  return { sent, failure: null };
}
