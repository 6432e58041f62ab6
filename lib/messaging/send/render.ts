import { and, eq, inArray } from "drizzle-orm";
import { listings, messagingTemplates, properties } from "../../../db/schema";
import { tenantListingsWhere } from "../../listings/access";
import type { MemberCtx } from "../../context/verb-context";
import { DomainError } from "../../errors/domain-errors";
import { createShareLink } from "../../share/share-links";
import type { AckReason } from "./ack";

/** What goes to the gateway: one text, or one approved template. */
export type OutboundPart = { kind: "text"; text: string } | { kind: "template"; name: string; language: string };

export type Content = { kind: "text"; text: string } | { kind: "listing_cards"; listingIds: string[] } | { kind: "template"; templateId: string };

type Prepared = { ok: true; build: () => Promise<OutboundPart[] | { failed: AckReason }> } | { ok: false; reason: AckReason };

const money = (amount: string, currency: string) => {
  try {
    return new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
};

/**
 * Checks the content against the channel and the tenant before anything is claimed or sent, and
 * returns the builder that renders it after the idempotency claim (listing cards create their share
 * links then, so a resend creates none). A listing card is one message per listing: its title,
 * its price when the listing shows it, and its public link (a share link of the listing, on the
 * tenant's share domain, which honours the tenant's sharing rules).
 */
export async function prepareContent(
  ctx: MemberCtx,
  channel: { id: string; supportsTemplates: boolean },
  content: Content,
  dealId: string | undefined,
): Promise<Prepared> {
  if (content.kind === "text") return { ok: true, build: async () => [{ kind: "text", text: content.text }] };
  if (content.kind === "template") {
    if (!channel.supportsTemplates) return { ok: false, reason: "channel_send_unsupported" };
    const [t] = await ctx.db
      .select()
      .from(messagingTemplates)
      .where(
        and(
          eq(messagingTemplates.id, content.templateId),
          eq(messagingTemplates.tenantId, ctx.tenantId),
          eq(messagingTemplates.channelId, channel.id),
          eq(messagingTemplates.status, "approved"),
        ),
      )
      .limit(1);
    if (!t) return { ok: false, reason: "template_not_found" };
    return { ok: true, build: async () => [{ kind: "template", name: t.name, language: t.language }] };
  }
  const ids = [...new Set(content.listingIds.map((i) => i.toLowerCase()))];
  const rows = await ctx.db
    .select({ id: listings.id, title: listings.title, price: listings.price, currency: listings.currency, priceVisibility: listings.priceVisibility })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(tenantListingsWhere(ctx.actor), inArray(listings.id, ids)));
  if (rows.length !== ids.length) return { ok: false, reason: "listing_not_found" };
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    ok: true,
    build: async () => {
      const parts: OutboundPart[] = [];
      for (const id of ids) {
        const l = byId.get(id)!;
        let url: string;
        try {
          url = (await createShareLink(ctx, { entityType: "listing", entityId: id, ...(dealId ? { dealId } : {}) })).url;
        } catch (err) {
          if (err instanceof DomainError && err.code === "share_creation_prevented") return { failed: "listing_not_shareable" };
          if (err instanceof DomainError && err.kind === "not_found") return { failed: "listing_not_found" };
          throw err;
        }
        const price = l.price && l.priceVisibility === "public" ? money(l.price, l.currency) : null;
        parts.push({ kind: "text", text: [l.title, price, url].filter(Boolean).join("\n") });
      }
      return parts;
    },
  };
}
