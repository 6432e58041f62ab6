import type { z } from "zod";
import { logger } from "../log/logger";
import type { JobEvent } from "./define-job";
import { jobsMode } from "./mode";
import { wakeWorker } from "./worker-wake";
import { processGlobal } from "../util/process-global";

type Listener = (name: string, data: unknown) => void;
type Transport = (name: string, data: unknown) => Promise<void>;
const g = processGlobal("job-dispatch", () => ({ listeners: new Set<Listener>(), transport: undefined as Transport | undefined }));

/** The embedded runner listens here for events that trigger jobs. */
export function onJobEvent(fn: Listener): () => void {
  g.listeners.add(fn);
  return () => g.listeners.delete(fn);
}

/** Hands an event to this process's embedded runner (the jobs worker calls it for each notification). */
export function deliverJobEvent(name: string, data: unknown): void {
  for (const fn of g.listeners) fn(name, data);
}

/** How events reach Inngest; installed from `inngest/transport.ts` at start, so `lib/` never imports `inngest/`. */
export function setJobTransport(send: Transport | undefined): void {
  g.transport = send;
}

/**
 * Sends a job's trigger event (after the commit that made the work, see `afterCommit`). Best
 * effort by design: the work is in PostgreSQL, and the schedule (embedded poll or Inngest cron)
 * picks it up if the event is lost.
 */
export function sendJobEvent<S extends z.ZodType>(event: JobEvent<S>, data: z.input<S>): void {
  const payload = event.schema.parse(data);
  const mode = jobsMode();
  if (mode === "embedded") deliverJobEvent(event.name, payload);
  if (mode === "worker") wakeWorker(event.name, payload);
  if (mode === "inngest") {
    const send = g.transport;
    if (!send) {
      logger().debug({ event: event.name }, "no Inngest transport in this process; the schedule will run the work");
      return;
    }
    void send(event.name, payload).catch((err) =>
      logger().warn({ err, event: event.name }, "could not send the event to Inngest; the schedule will run the work"),
    );
  }
}
