import { and, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { dealDocuments, deals, members, offers, type DealRow, type OfferRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { dealAccessWhere } from "../deals/access";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { assertListingReadable } from "../listings/readable-listings";
import { openTransaction } from "../transactions/transactions";
import { recordOfferEvent } from "./offer-events";
import { CreateOfferSchema, TRANSITION_BODIES, serializeOffer, type ListOffersQueryInput, type Offer, type OfferPageSchema } from "./schemas";
import { OFFER_VERBS, TRANSITIONS, type OfferVerb } from "./state-machine";

/** Offers follow their deal's row rules: a restricted key sees offers of deals it sees, and its own. */
function accessWhere(actor: MemberActor): SQL | undefined {
  if (actor.access === "broad") return undefined;
  return or(
    eq(offers.brokerId, actor.userId),
    sql`${offers.dealId} in (select d.id from deals d where d.tenant_id = ${actor.tenantId} and (d.assigned_to_id = ${actor.userId} or d.created_by_id = ${actor.userId}))`,
  );
}

export async function listOffers({ db, actor }: MemberCtx, q: ListOffersQueryInput): Promise<z.infer<typeof OfferPageSchema>> {
  const where = and(
    eq(offers.tenantId, actor.tenantId),
    accessWhere(actor),
    q.dealId ? eq(offers.dealId, q.dealId) : undefined,
    q.listingId ? eq(offers.listingId, q.listingId) : undefined,
    q.status ? eq(offers.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(offers)
      .where(where)
      .orderBy(desc(offers.createdAt), desc(offers.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(offers).where(where),
  ]);
  return { items: rows.map(serializeOffer), total, page: q.page, pageSize: q.pageSize };
}

export async function loadOffer(db: DbOrTx, actor: MemberActor, id: string, forUpdate = false): Promise<OfferRow> {
  const q = db
    .select()
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.tenantId, actor.tenantId), accessWhere(actor)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw notFound(`Offer ${id} not found.`);
  return row;
}

export async function getOffer({ db, actor }: MemberCtx, id: string): Promise<Offer> {
  return serializeOffer(await loadOffer(db, actor, id));
}

export async function createOffer({ db, actor }: MemberCtx, input: unknown): Promise<Offer> {
  const data = CreateOfferSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const deal = await dealForOffer(tx, actor, data.dealId);
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    if (data.brokerId) await assertMember(tx, actor.tenantId, data.brokerId, "brokerId");
    const [row] = await tx
      .insert(offers)
      .values({
        tenantId: actor.tenantId,
        dealId: deal.id,
        listingId: data.listingId ?? null,
        brokerId: data.brokerId ?? deal.assignedToId ?? actor.userId,
        dealType: deal.dealType,
        amount: data.amount,
        source: data.source,
        expiresAt: data.expiresAt ? new Date(data.expiresAt) : null,
        notes: data.notes ?? null,
        createdById: actor.userId,
      })
      .returning();
    await recordOfferEvent(tx, actor, "offer.created", row, row.createdAt);
    return serializeOffer(row);
  });
}

/**
 * `POST /offers/{id}/{verb}`: one transition of the state machine and its one event, in one
 * transaction with the offer row locked, so two concurrent transitions cannot both pass the check.
 * A verb the current state does not allow is a 409 naming that state.
 */
export async function transitionOffer({ db, actor }: MemberCtx, { id, verb, body }: { id: string; verb: string; body: unknown }): Promise<Offer> {
  if (!(OFFER_VERBS as readonly string[]).includes(verb)) {
    throw notFound(`No offer action '${verb}': the actions are ${OFFER_VERBS.join(", ")}.`);
  }
  const v = verb as OfferVerb;
  const input = TRANSITION_BODIES[v].parse(body ?? {}) as Record<string, unknown>;
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const offer = await loadOffer(tx, actor, id, true);
    const t = TRANSITIONS[v];
    if (!t.from.includes(offer.status)) {
      throw conflict(`Offer ${offer.id} is ${offer.status}: '${v}' is allowed only from ${t.from.join(", ")}.`, "invalid_transition");
    }
    const now = new Date();
    const set: Partial<OfferRow> = { status: t.to, lastMovementAt: now, updatedAt: now };
    let extra: Record<string, unknown> = {};
    let openFrom: { notes: string | null } | undefined;
    if (v === "send" || v === "client-confirm" || v === "client-sign") {
      const doc = input.document as { name: string; url: string } | undefined;
      if (doc) {
        const [d] = await tx
          .insert(dealDocuments)
          .values({ tenantId: actor.tenantId, dealId: offer.dealId, kind: "offer_pdf", name: doc.name, url: doc.url })
          .returning();
        set.documentId = d.id;
      }
      extra = { documentId: set.documentId ?? offer.documentId };
    } else if (v === "withdraw" || v === "reject") {
      set.declineCode = input.declineCode as string;
      extra = { declineCode: set.declineCode };
    } else if (v === "accept" && input.openTransaction) {
      // The transaction opens in the same database transaction, so `offer.accepted` names it and a
      // failure undoes both. It is written after the offer moves (an accepted offer is its source).
      openFrom = { notes: (input.transactionNotes as string | undefined) ?? null };
    } else if (v === "counter") {
      const [counter] = await tx
        .insert(offers)
        .values({
          tenantId: actor.tenantId,
          dealId: offer.dealId,
          listingId: offer.listingId,
          brokerId: offer.brokerId,
          dealType: offer.dealType,
          amount: input.amount as string,
          source: offer.source === "provider_sync" ? "crm" : offer.source,
          counteredOfferId: offer.id,
          expiresAt: input.expiresAt ? new Date(input.expiresAt as string) : null,
          notes: (input.notes as string | undefined) ?? null,
          createdById: actor.userId,
        })
        .returning();
      set.counterOfferId = counter.id;
      extra = { counterOfferId: counter.id };
    }
    const [row] = await tx
      .update(offers)
      .set(set)
      .where(and(eq(offers.id, offer.id), eq(offers.tenantId, actor.tenantId)))
      .returning();
    if (openFrom) {
      const [deal] = await tx
        .select()
        .from(deals)
        .where(and(eq(deals.id, row.dealId), eq(deals.tenantId, actor.tenantId)))
        .limit(1);
      const opened = await openTransaction(tx, actor, { deal, offer: row, amount: row.amount, currency: "BRL", notes: openFrom.notes });
      extra = { transactionId: opened.id };
    }
    await recordOfferEvent(tx, actor, t.event, row, now, extra as never);
    return serializeOffer(row);
  });
}

async function dealForOffer(tx: DbOrTx, actor: MemberActor, dealId: string): Promise<DealRow> {
  const [deal] = await tx
    .select()
    .from(deals)
    .where(and(eq(deals.id, dealId), eq(deals.tenantId, actor.tenantId), dealAccessWhere(actor)))
    .limit(1);
  if (!deal) throw invalid(`dealId: no deal ${dealId} in this tenant that this key can see.`);
  return deal;
}

export async function assertMember(tx: DbOrTx, tenantId: string, memberId: string, field: string) {
  const [m] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, tenantId), eq(members.active, true)))
    .limit(1);
  if (!m) throw invalid(`${field}: no active member ${memberId} in this tenant.`);
}
