import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import { inboundLeads, marketingChannelInstances, type MarketingChannelInstanceRow, type SiteRow } from "../../../db/schema";
import { invalid, unavailable } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import { leadReceived } from "./lead-job";
import { parseLead } from "./parse-lead";
import { sitePathOr } from "../../util/site-path";
import { storableJson } from "../../util/storable-text";
import { VisitorIdSchema } from "../../visitors/visitor-id";

/**
 * The lead form of a rendered site (issue #15). A site posts to its own address (`/lead`), and
 * the lead goes through the channel lead intake of the site's marketing channel: stored as an
 * inbound lead of that channel (raw body kept) before the visitor is told it was sent, then
 * processed by the same job as a channel webhook's leads (deal, distribution queue, events).
 *
 * A site's channel: the tenant's active `website` channel whose settings name the site
 * (`settings.siteId`), else its oldest active `website` channel. A tenant without one gets a
 * clear 503 (`site_channel_missing`): the form says messages cannot be sent right now.
 */
export const SiteLeadForm = z.object({
  name: z.string().trim().min(1, "name: required").max(200, "name: at most 200 characters"),
  email: z.string().trim().max(200).optional().default(""),
  phone: z.string().trim().max(40).optional().default(""),
  message: z.string().trim().max(4000, "message: at most 4000 characters").optional().default(""),
  listingId: z.string().trim().max(100).optional().default(""),
  /** The page the form was sent from (a path of the site). */
  landingPage: z.string().trim().max(2000).optional().default("/"),
  locale: z.string().max(10).optional().default("pt-BR"),
  /** The browser's random visitor id (filled in by the favourites script): the deal gets the visitor's favourites. */
  visitorId: z
    .union([z.literal(""), VisitorIdSchema])
    .optional()
    .default(""),
  /** A field people never see: bots fill it. A filled one is dropped quietly. */
  website: z.string().max(500).optional().default(""),
});

export type SiteLeadResult = { status: "stored"; leadId: string } | { status: "dropped" };

export async function siteChannel(db: DbOrTx, site: { tenantId: string; id: string | null }): Promise<MarketingChannelInstanceRow | null> {
  const [row] = await db
    .select()
    .from(marketingChannelInstances)
    .where(
      and(eq(marketingChannelInstances.tenantId, site.tenantId), eq(marketingChannelInstances.active, true), eq(marketingChannelInstances.kind, "website")),
    )
    .orderBy(desc(sql`(${marketingChannelInstances.settings}->>'siteId') is not distinct from ${site.id}`), asc(marketingChannelInstances.createdAt))
    .limit(1);
  return row ?? null;
}

export async function receiveSiteLead(db: DbOrTx, site: SiteRow, input: unknown, meta: { userAgent?: string | null } = {}): Promise<SiteLeadResult> {
  // A NUL or lone surrogate (only a script sends them) is cleaned: PostgreSQL cannot store them.
  const form = SiteLeadForm.parse(storableJson(input));
  if (form.website) return { status: "dropped" };
  if (!form.email && !form.phone) throw invalid("email or phone: send at least one way to reach you", "contact_missing");
  if (form.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email)) throw invalid("email: not an e-mail address", "invalid_email");
  const landing = sitePathOr(form.landingPage, "/");
  const channel = await siteChannel(db, site);
  if (!channel) throw unavailable("This site has no active website marketing channel to receive leads.", "site_channel_missing");
  if (!channel.destinations.deal) throw unavailable("The site's marketing channel does not accept deal leads.", "site_channel_missing");
  const body = {
    contactName: form.name,
    ...(form.email ? { contactEmail: form.email } : {}),
    ...(form.phone ? { contactPhone: form.phone } : {}),
    ...(form.message ? { message: form.message } : {}),
    ...(form.listingId ? { listingId: form.listingId } : {}),
    leadType: "contact",
    source: "site",
    destination: "deal",
    landingPage: landing,
    siteDomain: site.domain,
  };
  const raw = JSON.stringify(body);
  const lead = { ...parseLead(body, null), ...(form.visitorId ? { visitor: { siteId: site.id, visitorId: form.visitorId } } : {}) };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (meta.userAgent) headers["user-agent"] = meta.userAgent.slice(0, 500);
  const [stored] = await db
    .insert(inboundLeads)
    .values({
      tenantId: channel.tenantId,
      channelId: channel.id,
      originLeadId: null,
      destination: "deal",
      rawBody: raw,
      headers,
      lead: lead as unknown as Record<string, unknown>,
    })
    .returning({ id: inboundLeads.id });
  // Stored: the visitor may be told it was sent. Processing runs in the background.
  sendJobEvent(leadReceived, { leadId: stored.id });
  return { status: "stored", leadId: stored.id };
}
