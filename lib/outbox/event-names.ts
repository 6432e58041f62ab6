/** Outbound event names of spec 2 §6. */
export const EVENT_NAMES = [
  "deal.created", "deal.updated", "deal.deleted", "deal.attribution.tracked",
  "listing.created", "listing.updated", "listing.workflow.transitioned", "listing.deleted", "listing.attribution.tracked",
  "task.created", "task.updated", "task.deleted",
  "property.created", "property.updated",
  "building.updated",
  "transaction.created", "transaction.updated", "contract.signed",
  "offer.created", "offer.sent_to_client", "offer.client_confirmed", "offer.client_signed", "offer.countered",
  "offer.withdrawn", "offer.accepted", "offer.rejected", "offer.expired",
  "distribution.assigned", "distribution.accepted", "distribution.rejected", "distribution.transferred",
  "first_contact.skipped",
  "channel.message.received", "channel.message.sent",
  "agent.created", "agent.updated", "agent.deleted", "agent.execution.started", "agent.execution.completed",
  "agent.execution.failed",
  "webhook.test",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
