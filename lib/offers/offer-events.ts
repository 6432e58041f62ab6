import type { OfferRow } from "../../db/schema";
import type { Actor } from "../context/actor";
import { eventUserId } from "../context/actor";
import type { EventName } from "../outbox/event-names";
import { recordEvent } from "../outbox/record-event";
import type { DbOrTx } from "../../db/client";

/** The extra field each event may carry, and only that event (spec 2 §6). */
export type OfferEventExtra =
  | { counterOfferId: string }
  | { declineCode: string }
  | { transactionId: string }
  | { documentId: string | null }
  | Record<string, never>;

/**
 * `data.data` of `offer.*` (spec 2 §6): the common fields, `listingId` only when the offer has one,
 * `amount` as a number, `currency` always BRL, plus the one extra of the event.
 */
export function offerEventData(o: OfferRow, occurredAt: Date, extra: OfferEventExtra = {}) {
  return {
    offerId: o.id,
    dealId: o.dealId,
    ...(o.listingId ? { listingId: o.listingId } : {}),
    brokerId: o.brokerId,
    amount: Number(o.amount),
    currency: "BRL",
    dealType: o.dealType,
    source: o.source,
    occurredAt: occurredAt.toISOString(),
    ...extra,
  };
}

export function recordOfferEvent(tx: DbOrTx, actor: Actor, eventName: EventName, o: OfferRow, occurredAt: Date, extra: OfferEventExtra = {}) {
  return recordEvent(tx, {
    tenantId: o.tenantId,
    eventName,
    entityType: "offer",
    entityId: o.id,
    userId: eventUserId(actor),
    data: offerEventData(o, occurredAt, extra),
  });
}
