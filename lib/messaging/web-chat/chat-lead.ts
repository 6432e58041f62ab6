import type { Tx } from "../../../db/client";
import { inboundLeads } from "../../../db/schema";
import { afterCommit } from "../../../db/transaction";
import { unavailable } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import { leadReceived } from "../../leads/inbound/lead-job";
import { parseLead } from "../../leads/inbound/parse-lead";
import { siteChannel } from "../../leads/inbound/site-lead";
import { sitePathOr } from "../../util/site-path";
import type { ChatPlace } from "./place";

type Contact = { name?: string; phone?: string; email?: string; pageUrl?: string; listingId?: string; locale?: string; visitorId?: string };

/** The path of a page URL (or the path itself), for the lead's landing page; else the site's root. */
function landingOf(pageUrl: string | undefined): string {
  if (!pageUrl) return "/";
  try {
    const u = new URL(pageUrl);
    return sitePathOr(`${u.pathname}${u.search}`, "/");
  } catch {
    return sitePathOr(pageUrl, "/");
  }
}

/**
 * A visitor who leaves a phone or e-mail with consent becomes a lead exactly as the site's lead
 * form makes one: an inbound lead of the tenant's website marketing channel (the site's own, else
 * the oldest), processed by the lead job (contact, deal, broker, events). Stored in the caller's
 * transaction; the job is woken after the commit. The lead processing links the deal and contact
 * back to the conversation (./link-lead.ts).
 */
export async function storeChatLead(tx: Tx, place: ChatPlace, c: Contact, meta: { userAgent?: string | null }): Promise<string> {
  const channel = await siteChannel(tx, { tenantId: place.tenantId, id: place.site?.id ?? null });
  if (!channel?.destinations.deal) throw unavailable("This agency has no active website marketing channel to receive leads.", "site_channel_missing");
  const body = {
    contactName: c.name ?? c.email ?? c.phone,
    ...(c.email ? { contactEmail: c.email } : {}),
    ...(c.phone ? { contactPhone: c.phone } : {}),
    ...(c.listingId ? { listingId: c.listingId } : {}),
    leadType: "contact",
    source: "web_chat",
    destination: "deal",
    landingPage: landingOf(c.pageUrl),
    ...(place.site ? { siteDomain: place.site.domain } : {}),
  };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (meta.userAgent) headers["user-agent"] = meta.userAgent.slice(0, 500);
  const [stored] = await tx
    .insert(inboundLeads)
    .values({
      tenantId: place.tenantId,
      channelId: channel.id,
      originLeadId: null,
      destination: "deal",
      rawBody: JSON.stringify(body),
      headers,
      // Only a site's visitor has favourites (a share page belongs to no site).
      lead: {
        ...parseLead(body, null),
        ...(c.visitorId && place.site ? { visitor: { siteId: place.site.id, visitorId: c.visitorId } } : {}),
      } as unknown as Record<string, unknown>,
    })
    .returning({ id: inboundLeads.id });
  afterCommit(
    tx,
    `web-chat-lead:${stored.id}`,
    () => stored.id,
    (leadId) => sendJobEvent(leadReceived, { leadId }),
  );
  return stored.id;
}
