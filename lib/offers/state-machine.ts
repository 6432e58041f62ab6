import type { OfferStatus } from "../../db/schema";
import type { EventName } from "../outbox/event-names";

/**
 * The offer state machine. An offer starts `draft` (`offer.created`); each verb moves it from one
 * of `from` to `to` and writes exactly one event. The five last states are final.
 *
 *   draft --send--> sent_to_client --client-confirm--> client_confirmed --client-sign--> client_signed
 *   sent_to_client | client_confirmed | client_signed --accept--> accepted
 *                                                     --reject--> rejected   {declineCode}
 *                                                     --counter--> countered (a new draft offer answers it)
 *   any open state --withdraw--> withdrawn {declineCode};  --expire--> expired
 */
export const OFFER_VERBS = ["send", "client-confirm", "client-sign", "counter", "withdraw", "accept", "reject", "expire"] as const;
export type OfferVerb = (typeof OFFER_VERBS)[number];

const PRESENTED: OfferStatus[] = ["sent_to_client", "client_confirmed", "client_signed"];
const OPEN: OfferStatus[] = ["draft", ...PRESENTED];

export const TRANSITIONS: Record<OfferVerb, { from: OfferStatus[]; to: OfferStatus; event: EventName }> = {
  send: { from: ["draft"], to: "sent_to_client", event: "offer.sent_to_client" },
  "client-confirm": { from: ["sent_to_client"], to: "client_confirmed", event: "offer.client_confirmed" },
  "client-sign": { from: ["client_confirmed"], to: "client_signed", event: "offer.client_signed" },
  counter: { from: PRESENTED, to: "countered", event: "offer.countered" },
  withdraw: { from: OPEN, to: "withdrawn", event: "offer.withdrawn" },
  accept: { from: PRESENTED, to: "accepted", event: "offer.accepted" },
  reject: { from: PRESENTED, to: "rejected", event: "offer.rejected" },
  expire: { from: OPEN, to: "expired", event: "offer.expired" },
};

export const OPEN_OFFER_STATUSES = OPEN;
export const isOpenOffer = (s: OfferStatus) => OPEN.includes(s);
