import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client";
import { inboundLeads, savedSearches, savedSearchHits, type SavedSearchRow } from "../../db/schema";
import { afterCommit, inTenantTransaction } from "../../db/transaction";
import { sendJobEvent } from "../jobs/dispatch";
import { leadReceived } from "../leads/inbound/lead-job";
import { parseLead } from "../leads/inbound/parse-lead";
import { siteChannel } from "../leads/inbound/site-lead";
import { logger } from "../log/logger";
import { describeFilters } from "./describe";
import type { SavedFilters } from "./filters";
import { alertTexts } from "./texts";
import { idOfToken, linkToken } from "./tokens";

/** The address of a saved search's page (`confirmar`, `sair`), in the visitor's language. */
export function alertLink(row: Pick<SavedSearchRow, "id" | "linkBase" | "locale">, action: "confirm" | "unsubscribe"): string {
  const prefix = row.locale === "en" ? "/en" : row.locale === "es" ? "/es" : "";
  const path = action === "confirm" ? "confirmar" : "sair";
  return `${row.linkBase}${prefix}/alertas/${path}/${linkToken(row.id, action)}`;
}

async function rowOf(tx: DbOrTx, id: string, tenantId: string): Promise<SavedSearchRow | null> {
  const [row] = await tx
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.tenantId, tenantId)))
    .limit(1)
    .for("update");
  return row ?? null;
}

/**
 * The confirmed search becomes a lead of the site's marketing channel, processed like the site's
 * lead form (contact, deal, broker, events), with its filters as the lead's interest and message.
 * No channel: the search still works; the broker just has no deal for it (logged).
 */
async function storeLead(tx: Tx, row: SavedSearchRow): Promise<string | null> {
  const channel = await siteChannel(tx, { tenantId: row.tenantId, id: row.siteId });
  if (!channel?.destinations.deal) {
    logger().warn({ savedSearch: row.id, tenant: row.tenantId }, "saved search confirmed without a website channel: no lead");
    return null;
  }
  const f = row.filters as SavedFilters;
  const body = {
    contactName: row.contactName ?? row.email ?? row.phone,
    ...(row.email ? { contactEmail: row.email } : {}),
    ...(row.phone ? { contactPhone: row.phone } : {}),
    businessType: f.type === "rental" ? "rental" : "sale",
    ...(f.propertyType ? { propertyType: f.propertyType } : {}),
    ...(f.bedrooms ? { bedrooms: f.bedrooms } : {}),
    ...(f.maxPrice ? { price: f.maxPrice } : {}),
    address: { ...(f.city ? { city: f.city } : {}), ...(f.neighborhood ? { neighborhood: f.neighborhood } : {}) },
    message: `Alerta de imóveis (${row.channel === "email" ? "e-mail" : "WhatsApp"}, ${row.frequency === "daily" ? "resumo diário" : "imediato"}): ${describeFilters(f, alertTexts("pt-BR"))}`,
    leadType: "contact",
    source: "saved_search",
    destination: "deal",
    landingPage: row.consentSource.page ?? "/imoveis",
    siteDomain: row.consentSource.site,
  };
  const [stored] = await tx
    .insert(inboundLeads)
    .values({
      tenantId: row.tenantId,
      channelId: channel.id,
      originLeadId: `saved-search:${row.id}`,
      destination: "deal",
      rawBody: JSON.stringify(body),
      headers: { "content-type": "application/json" },
      // The browser's visitor id: the lead job attaches the visitor's favourites to the deal (lib/visitors).
      lead: { ...parseLead(body, null), ...(row.visitorId ? { visitor: { siteId: row.siteId, visitorId: row.visitorId } } : {}) } as unknown as Record<
        string,
        unknown
      >,
    })
    .onConflictDoNothing()
    .returning({ id: inboundLeads.id });
  if (!stored) return null;
  afterCommit(
    tx,
    `saved-search-lead:${stored.id}`,
    () => stored.id,
    (leadId) => sendJobEvent(leadReceived, { leadId }),
  );
  return stored.id;
}

export type LinkOutcome = { row: SavedSearchRow; changed: boolean } | null;

/**
 * The search a confirmation link names, read only: what `GET /alertas/confirmar/{token}` shows
 * before the visitor presses the button (mail scanners open links; opening one must not confirm).
 */
export async function peekConfirmation(db: DbOrTx, token: string, tenantId: string): Promise<SavedSearchRow | null> {
  const id = idOfToken(token, "confirm");
  if (!id) return null;
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.tenantId, tenantId)))
    .limit(1);
  return row ?? null;
}

/**
 * `POST /alertas/confirmar/{token}` (the page's button): the double opt-in. A pending search becomes active (alerts start
 * with the next matching change) and a lead; following the link again changes nothing. An
 * unsubscribed search stays unsubscribed: consent withdrawn is not given back by an old link.
 * Only a search of `tenantId` (the site's, whose page the link opened) is touched.
 */
export function confirmSavedSearch(db: DbOrTx, token: string, tenantId: string): Promise<LinkOutcome> {
  return changeByToken(db, token, "confirm", tenantId, async (tx, row) => {
    if (row.status !== "pending") return { row, changed: false };
    const leadId = await storeLead(tx, row);
    return { row: await update(tx, row, { status: "active", confirmedAt: new Date(), inboundLeadId: leadId }), changed: true };
  });
}

/**
 * `/alertas/sair/{token}` (GET from the message, POST from a mail client's one-click): no alert is
 * sent from now on. The hits still waiting go with it (they would never be sent, and would stay in
 * the alert claim's due index for good); the ones sent stay, as the search's history.
 */
export function unsubscribeSavedSearch(db: DbOrTx, token: string, tenantId: string): Promise<LinkOutcome> {
  return changeByToken(db, token, "unsubscribe", tenantId, async (tx, row) => {
    if (row.status === "unsubscribed") return { row, changed: false };
    await tx.delete(savedSearchHits).where(and(eq(savedSearchHits.savedSearchId, row.id), isNull(savedSearchHits.sentAt)));
    return { row: await update(tx, row, { status: "unsubscribed", unsubscribedAt: new Date() }), changed: true };
  });
}

/**
 * The search a link's token names, if it is `tenantId`'s (the site whose page the link opened),
 * changed under its row lock in the tenant's transaction. A foreign or unknown id is read once
 * and takes no lock.
 */
async function changeByToken(
  db: DbOrTx,
  token: string,
  kind: "confirm" | "unsubscribe",
  tenantId: string,
  change: (tx: Tx, row: SavedSearchRow) => Promise<LinkOutcome>,
): Promise<LinkOutcome> {
  const id = idOfToken(token, kind);
  if (!id) return null;
  const [known] = await db
    .select({ id: savedSearches.id })
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.tenantId, tenantId)))
    .limit(1);
  if (!known) return null;
  return inTenantTransaction(db, tenantId, async (tx) => {
    const row = await rowOf(tx, id, tenantId);
    return row ? change(tx, row) : null;
  });
}

async function update(tx: Tx, row: SavedSearchRow, set: Partial<SavedSearchRow>): Promise<SavedSearchRow> {
  const [updated] = await tx
    .update(savedSearches)
    .set(set)
    .where(and(eq(savedSearches.id, row.id), eq(savedSearches.tenantId, row.tenantId)))
    .returning();
  return updated;
}
