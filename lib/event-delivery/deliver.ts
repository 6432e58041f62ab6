import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import { config } from "../config";
import { logger } from "../log/logger";
import { type Attempt, type Claimed, recordAttempt } from "./claim";
import { claimBatch, type TenantRun } from "./claim-batch";
import { type DeliveryState, type Outcome as RecordedOutcome, OutcomeRecorder } from "./record-outcomes";
import { buildHeaders, envelopeBody } from "./envelope";
import { postWebhook, type SendResult } from "./send-webhook";

export type CycleReport = { tenants: number; delivered: number; failed: number; dropped: number };

export type DeliveryOptions = {
  /** Identifies this worker's leases; a fresh one per call unless given. */
  workerId?: string;
  concurrency?: number;
  timeoutMs?: number;
  retrySeconds?: number;
};

/** Events of one tenant taken per claim. */
const RUN_SIZE = 100;
/**
 * A claimed run is sent only this long after its claim (the rest is released and claimed again):
 * it bounds the lease, and a rotated secret or a changed URL reaches the runs claimed after it.
 * Long enough that a loaded machine (a lane sending 10 events a second) finishes its run and the
 * one claimed behind it: a run cut short costs its rest two more writes (release, claim again).
 */
const RUN_WINDOW_MS = 20_000;

/**
 * One delivery cycle: every tenant whose queue head is due is served, several tenants at once
 * (bounded), each strictly in order, one event at a time. A failure ends that tenant's turn: its
 * head holds the rest back until the retry interval has passed. Safe to run in several workers.
 *
 * The database work is batched: one statement claims runs of up to 100 events for many tenants
 * at once (`claimBatch`), a lane asks for its tenant's next run in one statement, and the outcomes
 * of all lanes are recorded together (`OutcomeRecorder`), so a round trip serves many events.
 * `onWork` hears each claim that found events due (the job marks itself paced from the first).
 */
export async function deliverDueEvents(db: Db, opts: DeliveryOptions = {}, onWork?: () => void): Promise<CycleReport> {
  const o = resolveOptions(opts);
  const report: CycleReport = { tenants: 0, delivered: 0, failed: 0, dropped: 0 };
  const recorder = new OutcomeRecorder(db, o.workerId, o.retrySeconds);
  const lanes = new Map<Promise<void>, string>();
  try {
    for (let more = true; more; ) {
      const free = o.concurrency - lanes.size;
      if (free > 0) {
        const claimedAt = Date.now();
        const runs = await claimBatch(db, o.workerId, leaseMs(o), { tenants: free, perTenant: RUN_SIZE, exclude: [...lanes.values()] });
        // Fewer tenants than asked for: none is left for this cycle (or another worker has them).
        more = runs.length === free;
        if (runs.length) onWork?.();
        for (const run of runs) {
          report.tenants++;
          const lane: Promise<void> = serveTenant(db, run, claimedAt, o, recorder, report).finally(() => lanes.delete(lane));
          lanes.set(lane, run.tenantId);
        }
      }
      if (more) await Promise.race(lanes.keys());
    }
  } finally {
    await Promise.allSettled(lanes.keys());
  }
  return report;
}

/** Long enough to send a run (its window, then one request's timeout) and record it (30 s). */
const leaseMs = (o: Resolved) => RUN_WINDOW_MS + o.timeoutMs + 30_000;

export type Resolved = Required<DeliveryOptions>;

/** How a run ended: all sent, cut short (the rest released; go on from the head), or stopped by a failed head. */
type RunEnd = "done" | "cut" | "stopped";

/**
 * One tenant's turn: its runs one after the other, the next run claimed while the current one is
 * being sent (the events right behind it, which nobody else can take while this worker holds the
 * head), so the lane waits on the database only when it starts and when something fails. The
 * outcomes are recorded in the background; the turn ends once they are all stored. An error ends
 * that turn only (logged), never the cycle of the others.
 */
async function serveTenant(db: Db, first: TenantRun, claimedAt: number, o: Resolved, recorder: OutcomeRecorder, report: CycleReport): Promise<void> {
  const tenantId = first.tenantId;
  const stored: Promise<void>[] = [];
  const errors: unknown[] = [];
  const record = (outcome: RecordedOutcome): Promise<DeliveryState> => {
    const p = recorder.record(outcome);
    stored.push(
      p.then(
        (state) => void (outcome.attempt && count(report, state)),
        (err) => void errors.push(err),
      ),
    );
    return p;
  };
  const release = (events: Claimed[]) => {
    for (const c of events) record({ eventId: c.event.id, tenantId, attempt: null });
  };
  const claim = (afterSeq?: number) =>
    claimBatch(db, o.workerId, leaseMs(o), { tenants: 1, perTenant: RUN_SIZE, tenantId, afterSeq }).then((r) => r[0]?.events ?? []);
  try {
    let run = first.events;
    let at = claimedAt;
    while (run.length) {
      const nextAt = Date.now();
      const next = claim(run[run.length - 1].queueSeq);
      next.catch(() => {}); // awaited below; an early failure must not go unhandled meanwhile
      const end = await sendRun(run, at, o, record, release);
      const following = await next;
      if (end === "done") {
        run = following;
        at = nextAt;
        continue;
      }
      release(following);
      if (end === "stopped") break;
      // Cut short: once the released events are free again, go on from the tenant's head.
      await Promise.all(stored);
      at = Date.now();
      run = await claim();
    }
  } catch (err) {
    logger().error({ err, tenantId }, "delivery of this tenant's queue failed; it is retried at the next cycle");
  } finally {
    await Promise.all(stored);
    if (errors.length) logger().error({ err: errors[0], tenantId }, "recording deliveries failed; the leases run out and those events are sent again");
  }
}

function count(report: CycleReport, state: DeliveryState): void {
  if (state === "delivered") report.delivered++;
  else {
    // "pending" after an attempt: it failed and waits for its retry (or this worker lost its lease).
    report.failed++;
    if (state === "dropped") report.dropped++;
  }
}

/**
 * Sends a run in order. A failed attempt stops it and the events behind it are released unsent:
 * the failed head holds the tenant's queue back until its retry, unless that was its 8th failure
 * (dropped: the queue goes on). Past its window the rest of the run is released too.
 */
async function sendRun(
  events: Claimed[],
  claimedAt: number,
  o: Resolved,
  record: (outcome: RecordedOutcome) => Promise<DeliveryState>,
  release: (events: Claimed[]) => void,
): Promise<RunEnd> {
  for (let i = 0; i < events.length; i++) {
    const c = events[i];
    if (Date.now() - claimedAt >= RUN_WINDOW_MS) {
      release(events.slice(i));
      return "cut";
    }
    const attempt = await send(c, o);
    const state = record({ eventId: c.event.id, tenantId: c.event.tenantId, attempt, forceDrop: !attempt.url });
    if (!attempt.ok && attempt.url) {
      release(events.slice(i + 1));
      return (await state) === "dropped" ? "cut" : "stopped";
    }
  }
  return "done";
}

/** Sends one attempt with the settings read at claim time (the current ones). */
async function send(claimed: Claimed, o: Resolved): Promise<Attempt> {
  const at = new Date();
  const { url, hmac, bearer, secret } = claimed.settings;
  if (!url) return { at, url: "", ok: false, statusCode: null, error: "no webhook URL is configured", durationMs: 0, responseExcerpt: null };
  const body = envelopeBody(claimed.event, at);
  const headers = buildHeaders(claimed.event, body, { hmac, bearer, secret }, at);
  const result = await postWebhook(url, headers, body, o.timeoutMs);
  return {
    at,
    url,
    ok: result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300,
    ...result,
    error: storable(result.error, secret),
    responseExcerpt: storable(result.responseExcerpt, secret),
  };
}

/**
 * What the receiver said, as the log may keep it: without NUL (PostgreSQL text refuses it, which
 * would leave the attempt unrecorded and the queue stuck) and without our secret (a receiver that
 * echoes its request headers would otherwise put it in the delivery log).
 */
function storable(text: string | null, secret: string | null): string | null {
  if (text === null) return null;
  // Checked first: nearly every answer has neither, and this runs for every event.
  let out = text.includes("\u0000") ? text.replace(/\u0000/g, "\uFFFD") : text;
  if (secret && out.includes(secret)) out = out.split(secret).join("***");
  return out;
}

export type Outcome = "delivered" | "pending" | "dropped";

/** Sends one attempt and records it (the Test action). */
export async function attemptDelivery(db: Db, claimed: Claimed, o: Resolved): Promise<{ outcome: Outcome; result: SendResult }> {
  const { at, url, ok, ...result } = await send(claimed, o);
  return { outcome: await recordAttempt(db, claimed, o.workerId, { at, url, ok, ...result }, o.retrySeconds, !url), result };
}

export function resolveOptions(opts: DeliveryOptions = {}): Resolved {
  const c = config();
  return {
    workerId: opts.workerId ?? `w-${randomUUID()}`,
    concurrency: opts.concurrency ?? c.EVENTS_DELIVERY_CONCURRENCY,
    timeoutMs: opts.timeoutMs ?? c.WEBHOOK_TIMEOUT_MS,
    retrySeconds: opts.retrySeconds ?? c.EVENTS_RETRY_INTERVAL_SECONDS,
  };
}
