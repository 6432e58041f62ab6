import { deliverEventsCron, deliverEventsOnQueue } from "./deliver-events";

/** Every function the app serves at /api/inngest. */
export const functions = [deliverEventsCron, deliverEventsOnQueue];
