import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messagingChannels, type MessagingChannelRow, type SiteRow } from "../../../db/schema";
import { DomainError, notFound } from "../../errors/domain-errors";
import { openLink } from "../../share/resolve-share";
import { loadPublicSite } from "../../sites/load-site";
import { chatOnline } from "../../sites/site-chat";
import { loadTenant } from "../../tenants/load-tenant";
import { UUID_PATTERN } from "../../schemas/uuid";
import { coalescedReads } from "../../util/coalesced-reads";

/** Where a visitor chats from: a site (its `chat` setting) or a share link (the tenant's `sharingConfig.chatChannelId`). */
export type ChatPlace = {
  tenantId: string;
  channel: MessagingChannelRow;
  site: SiteRow | null;
  shareLinkId: string | null;
  /** The listing a share link shows, and the deal it was sent for (the chat joins that deal). */
  linkListingId: string | null;
  linkDealId: string | null;
  online: boolean;
};

const chatUnavailable = () => notFound("This page has no chat.", "chat_not_available");

async function webChatChannel(db: Db, tenantId: string, channelId: string | null | undefined): Promise<MessagingChannelRow> {
  // A malformed id (a setting written before ids were checked) finds nothing, and must not fail the others' read.
  if (!channelId || !UUID_PATTERN.test(channelId)) throw chatUnavailable();
  let read = channelReads.get(db);
  if (!read) channelReads.set(db, (read = channelReader(db)));
  const c = await read(`${channelId.toLowerCase()},${tenantId}`);
  if (!c) throw chatUnavailable();
  return c;
}

/**
 * Every visitor call reads its place's channel: the reads that arrive together share one statement
 * (lib/util/coalesced-reads.ts), each scoped by its (channel, tenant) pair. Keys: `channelId,tenantId`.
 */
const channelReads = new WeakMap<Db, (key: string) => Promise<MessagingChannelRow | undefined>>();
function channelReader(db: Db) {
  const q = db
    .select()
    .from(messagingChannels)
    .where(
      and(
        sql`(${messagingChannels.id}, ${messagingChannels.tenantId}) in (select * from unnest(string_to_array(${sql.placeholder("ids")}, ',')::uuid[], string_to_array(${sql.placeholder("tenants")}, ',')::uuid[]))`,
        eq(messagingChannels.transport, "web_chat"),
      ),
    )
    .prepare("web_chat_channels");
  return coalescedReads(async (keys) => {
    const pairs = keys.map((k) => k.split(","));
    const rows = await q.execute({ ids: pairs.map((p) => p[0]).join(","), tenants: pairs.map((p) => p[1]).join(",") });
    return new Map(rows.map((r) => [`${r.id},${r.tenantId}`, r]));
  });
}

/** A published, active site with a chat (404 `Site not found`, `Site not published` or `chat_not_available` otherwise). */
export async function siteChatPlace(db: Db, siteId: string): Promise<ChatPlace> {
  const site = await loadPublicSite(db, siteId);
  if (!site.published) throw new DomainError("not_found", "not_found", "Site not published");
  const channel = await webChatChannel(db, site.tenantId, site.chat?.channelId);
  return { tenantId: site.tenantId, channel, site, shareLinkId: null, linkListingId: null, linkDealId: null, online: chatOnline(site.chat?.hours ?? null) };
}

/**
 * An open share link of a tenant whose share pages carry a chat. A password-protected link needs
 * no password here: the chat shows nothing of what the link protects, and reaches only the agency.
 */
export async function shareChatPlace(db: Db, token: string): Promise<ChatPlace> {
  const link = await openLink(db, token);
  const { settings } = await loadTenant(db, link.tenantId);
  const channel = await webChatChannel(db, link.tenantId, settings.sharingConfig.chatChannelId);
  return {
    tenantId: link.tenantId,
    channel,
    site: null,
    shareLinkId: link.id,
    linkListingId: link.entityType === "listing" ? link.entityId : null,
    linkDealId: link.dealId,
    online: true,
  };
}
