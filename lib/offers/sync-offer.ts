import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { deals, offers, type OfferRow, type OfferStatus } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid } from "../errors/domain-errors";
import type { EventName } from "../outbox/event-names";
import { assertListingReadable } from "../listings/readable-listings";
import { assertMember } from "./offers";
import { recordOfferEvent } from "./offer-events";
import { SyncOfferSchema, serializeOffer, type OfferSyncResultSchema } from "./schemas";
import { isOpenOffer } from "./state-machine";

/** Spec 2 §6 and §8: imported offers emit events only for movement in the last 7 days. */
export const SYNC_EVENT_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * `POST /offers/sync`: an offer of an origin system (a portal, another CRM), upserted by
 * `externalId` with `source` `provider_sync`. On arrival it writes `offer.created`; a later change
 * of origin status writes `offer.accepted` or `offer.rejected` (`cancelled` → `rejected` with
 * `declineCode` `cancelled`). Both only when `movedAt` is within the last 7 days, so a first
 * import or re-sync of old history emits nothing. A report older than what is stored (out of
 * order) changes nothing; a final status is never reopened.
 */
export async function syncOffer({ db, actor }: MemberCtx, input: unknown): Promise<z.infer<typeof OfferSyncResultSchema>> {
  const data = SyncOfferSchema.parse(input);
  const movedAt = new Date(data.movedAt);
  if (movedAt.getTime() > Date.now() + 5 * 60_000) throw invalid("movedAt: is in the future.");
  const recent = Date.now() - movedAt.getTime() <= SYNC_EVENT_WINDOW_MS;
  const status: OfferStatus = data.status === "open" ? "sent_to_client" : data.status === "accepted" ? "accepted" : "rejected";
  const declineCode = data.status === "cancelled" ? "cancelled" : data.status === "rejected" ? (data.declineCode ?? "other") : null;
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [deal] = await tx
      .select()
      .from(deals)
      .where(and(eq(deals.id, data.dealId), eq(deals.tenantId, actor.tenantId)))
      .limit(1);
    if (!deal) throw invalid(`dealId: no deal ${data.dealId} in this tenant.`);
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    if (data.brokerId) await assertMember(tx, actor.tenantId, data.brokerId, "brokerId");
    const [current] = await tx
      .select()
      .from(offers)
      .where(and(eq(offers.tenantId, actor.tenantId), eq(offers.externalId, data.externalId)))
      .for("update");
    if (!current) {
      const [row] = await tx
        .insert(offers)
        .values({
          tenantId: actor.tenantId,
          dealId: deal.id,
          listingId: data.listingId ?? null,
          brokerId: data.brokerId ?? deal.assignedToId,
          dealType: deal.dealType,
          amount: data.amount,
          source: "provider_sync",
          status,
          declineCode,
          externalId: data.externalId,
          lastMovementAt: movedAt,
          createdById: actor.userId,
        })
        .returning();
      if (recent) await recordOfferEvent(tx, actor, "offer.created", row, movedAt);
      return { offer: serializeOffer(row), created: true, event: recent ? "offer.created" : null };
    }
    if (current.dealId !== deal.id) throw invalid(`dealId: offer ${data.externalId} belongs to deal ${current.dealId}.`);
    // Out of order or repeated: what is stored is as new or newer.
    if (movedAt <= current.lastMovementAt) return { offer: serializeOffer(current), created: false, event: null };
    const set: Partial<OfferRow> = { lastMovementAt: movedAt, updatedAt: new Date() };
    let event: EventName | null = null;
    if (isOpenOffer(current.status)) {
      set.amount = data.amount;
      if (status === "accepted" || status === "rejected") {
        set.status = status;
        set.declineCode = declineCode;
        event = status === "accepted" ? "offer.accepted" : "offer.rejected";
      }
    }
    const [row] = await tx.update(offers).set(set).where(eq(offers.id, current.id)).returning();
    if (event && recent) {
      await recordOfferEvent(tx, actor, event, row, movedAt, event === "offer.rejected" ? { declineCode: declineCode! } : {});
    }
    return { offer: serializeOffer(row), created: false, event: recent ? event : null };
  });
}
