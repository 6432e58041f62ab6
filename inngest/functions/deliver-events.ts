import { deliverEventsJob } from "../../lib/event-delivery/deliver-job";
import { inngestFunctionsOf } from "./from-job";

/** The delivery job's two functions: the every-minute retry cycle, and the run soon after writes. */
export const [deliverEventsCron, deliverEventsOnQueue] = inngestFunctionsOf(deliverEventsJob);
