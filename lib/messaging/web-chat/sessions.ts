import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { listings, messagingConversations, webChatSessions, type WebChatSessionRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { invalid, unauthorized } from "../../errors/domain-errors";
import { PhoneSchema } from "../../schemas/phone";
import { storableJson } from "../../util/storable-text";
import { maskHandle } from "../chat-id";
import { privacyStateOf } from "../chat-privacy";
import { storeChatLead } from "./chat-lead";
import type { ChatPlace } from "./place";
import { SESSION_DAYS } from "./store";
import { VisitorIdSchema } from "../../visitors/visitor-id";
import { coalescedReads } from "../../util/coalesced-reads";

/** What the participant is called when the visitor gave no name. */
export const VISITOR_NAME = "Visitante";

export const OpenChatSessionSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120).optional(),
    phone: PhoneSchema.optional(),
    email: z.email("must be an e-mail address").max(200).optional(),
    consent: z.boolean().default(false).meta({ description: "The visitor agrees to be contacted: with a phone or e-mail, the chat becomes a lead." }),
    pageUrl: z.string().trim().max(2000).optional().meta({ description: "The page the chat started on (a URL or a path)." }),
    listingId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional()
      .meta({ description: "The listing the page shows." }),
    locale: z.enum(["pt-BR", "en", "es"]).optional(),
    visitorId: VisitorIdSchema.optional().meta({
      description: "The random id the site visitor's browser keeps: when the chat becomes a lead on a site, the deal gets the visitor's favourites.",
    }),
  })
  .meta({ id: "OpenWebChatSession" });

export const ChatSessionSchema = z
  .object({
    sessionToken: z.string().meta({ description: "Send as `Authorization: Bearer {sessionToken}`. Shown once; valid 30 days after the last message." }),
    conversationKey: z.object({ channelId: z.uuid(), chatId: z.string() }),
    online: z.boolean().meta({ description: "Within the chat's opening hours (false: the widget shows the offline message)." }),
  })
  .meta({ id: "WebChatSession" });

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => `wcs_${randomBytes(32).toString("base64url")}`;
const TOKEN_PATTERN = /^wcs_[A-Za-z0-9_-]{43}$/;

/**
 * `POST .../chat/sessions`: a new conversation of the place's web-chat channel, and the token that
 * opens it. The conversation is listed at once (the visitor's name or "Visitante"), linked to the
 * share link's deal when the link was sent for one. With `consent` and a phone or e-mail, the
 * visitor's contact becomes a lead of the tenant's website channel, in the same transaction.
 */
export async function openChatSession(db: Db, place: ChatPlace, body: unknown, meta: { userAgent?: string | null } = {}) {
  const data = OpenChatSessionSchema.parse(storableJson(body));
  const listingId = data.listingId ?? place.linkListingId;
  if (data.listingId) {
    const [l] = await db
      .select({ id: listings.id })
      .from(listings)
      .where(and(eq(listings.id, data.listingId), eq(listings.tenantId, place.tenantId)))
      .limit(1);
    if (!l) throw invalid(`body field \`listingId\`: no listing ${data.listingId} here.`);
  }
  const token = newToken();
  const chatId = `${randomUUID()}@webchat`;
  const channel = place.channel;
  await inTenantTransaction(db, place.tenantId, async (tx) => {
    const leadId =
      data.consent && (data.phone || data.email) && !place.linkDealId
        ? await storeChatLead(tx, place, { ...data, listingId: listingId ?? undefined }, meta)
        : null;
    await tx.insert(webChatSessions).values({
      tenantId: place.tenantId,
      channelId: channel.id,
      siteId: place.site?.id ?? null,
      shareLinkId: place.shareLinkId,
      chatId,
      tokenHash: hashToken(token),
      name: data.name ?? null,
      phone: data.phone ?? null,
      email: data.email ?? null,
      consent: data.consent,
      pageUrl: data.pageUrl ?? null,
      listingId,
      locale: data.locale ?? null,
      inboundLeadId: leadId,
      expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
    });
    await tx.insert(messagingConversations).values({
      tenantId: place.tenantId,
      channelId: channel.id,
      chatId,
      privacyState: privacyStateOf(channel.id, chatId),
      displayName: data.name ?? VISITOR_NAME,
      handleMasked: data.phone ? maskHandle(`${data.phone.slice(1)}@c.us`) : maskHandle(chatId),
      kind: "contact",
      lastActivityAt: new Date(),
      lastPreview: null,
      lastFromMe: false,
      unreadCount: 0,
      awaitingReply: false,
      primaryDealId: place.linkDealId,
    });
  });
  return { sessionToken: token, conversationKey: { channelId: channel.id, chatId }, online: place.online };
}

/**
 * The session of `Authorization: Bearer {token}` for this place: a missing, malformed, unknown or
 * expired token, or one opened on another site or link, is one 401 (nothing says which). `place`
 * may still be on its way: the session is read meanwhile (`postMessage` reads both at once, one
 * round trip instead of two before the message is taken).
 */
export async function chatSessionOf(db: Db, place: ChatPlace | Promise<ChatPlace>, authorization: string | null): Promise<WebChatSessionRow> {
  const refused = () => unauthorized("A valid chat session token is required (Authorization: Bearer {sessionToken}).", "chat_session_invalid");
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  let read = sessionReads.get(db);
  if (!read) sessionReads.set(db, (read = sessionReader(db)));
  const found = token && TOKEN_PATTERN.test(token) ? read(hashToken(token)) : null;
  // The place's own refusal (404) comes first, as before; the read's failure then is not left unhandled.
  found?.catch(() => {});
  const p = await place;
  if (!found) throw refused();
  const s = await found;
  if (!s || s.tenantId !== p.tenantId || s.channelId !== p.channel.id) throw refused();
  if (p.site ? s.siteId !== p.site.id : s.shareLinkId !== p.shareLinkId) throw refused();
  return s;
}

/**
 * Every visitor call reads its session: the reads that arrive together share one statement
 * (lib/util/coalesced-reads.ts), by token hash (hex, so a comma joins them safely), unexpired at
 * the time the statement runs (never earlier than the request arrived).
 */
const sessionReads = new WeakMap<Db, (tokenHash: string) => Promise<WebChatSessionRow | undefined>>();
function sessionReader(db: Db) {
  const q = db
    .select()
    .from(webChatSessions)
    .where(
      and(
        sql`${webChatSessions.tokenHash} = any(string_to_array(${sql.placeholder("hashes")}, ','))`,
        gt(webChatSessions.expiresAt, sql`${sql.placeholder("now")}::timestamptz`),
      ),
    )
    .prepare("web_chat_sessions_by_token");
  return coalescedReads(async (hashes) => {
    const rows = await q.execute({ hashes: hashes.join(","), now: new Date().toISOString() });
    return new Map(rows.map((r) => [r.tokenHash, r]));
  });
}
