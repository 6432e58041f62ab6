import { logger } from "../log/logger";
import { jobsMode } from "./mode";

type Waker = () => void;
const g = globalThis as unknown as { __crmWakers?: Set<Waker> };

/** The embedded runner registers here to be woken early. */
export function onWake(fn: Waker): () => void {
  g.__crmWakers ??= new Set();
  g.__crmWakers.add(fn);
  return () => g.__crmWakers?.delete(fn);
}

/**
 * Called after a write commits, so new events go out within moments instead of at the next
 * poll. Best effort: the poll (embedded) or the cron (Inngest) delivers them anyway.
 */
export function wakeDelivery(): void {
  const mode = jobsMode();
  if (mode === "embedded") for (const fn of g.__crmWakers ?? []) fn();
  if (mode === "inngest") {
    void import("../../inngest/client")
      .then(({ inngest }) => inngest.send({ name: "crm/events.queued", data: {} }))
      .catch((err) => logger().warn({ err }, "could not notify Inngest of new events; the cron will deliver them"));
  }
}
