import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { config } from "../config";
import { logger } from "../log/logger";
import { claimHead, recordAndClaimNext, recordAttempt, type Attempt, type Claimed } from "./claim";
import { buildEnvelope, buildHeaders } from "./envelope";
import { postWebhook, type SendResult } from "./send-webhook";

export type CycleReport = { tenants: number; delivered: number; failed: number; dropped: number };

export type DeliveryOptions = {
  /** Identifies this worker's leases; a fresh one per call unless given. */
  workerId?: string;
  concurrency?: number;
  timeoutMs?: number;
  retrySeconds?: number;
};

/**
 * One delivery cycle: every tenant whose queue head is due is served, several tenants at once
 * (bounded), each strictly in order, one event at a time. A failure ends that tenant's turn: its
 * head holds the rest back until the retry interval has passed. Safe to run in several workers.
 */
export async function deliverDueEvents(db: Db, opts: DeliveryOptions = {}): Promise<CycleReport> {
  const o = resolveOptions(opts);
  const tenants = await dueTenants(db);
  const report: CycleReport = { tenants: tenants.length, delivered: 0, failed: 0, dropped: 0 };
  let next = 0;
  const lane = async () => {
    while (next < tenants.length) await deliverTenantQueue(db, tenants[next++], o, report);
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, tenants.length) }, lane));
  return report;
}

/** Tenants whose head event is due now and not leased by another worker. */
async function dueTenants(db: Db): Promise<string[]> {
  const res = await db.execute(sql`
    select tenant_id from (
      select distinct on (tenant_id) tenant_id, next_attempt_at, locked_until
      from event_deliveries where state = 'pending'
      order by tenant_id, queue_seq
    ) head
    where next_attempt_at <= now() and (locked_until is null or locked_until < now())`);
  return rowsOf<{ tenant_id: string }>(res).map((r) => r.tenant_id);
}

export type Resolved = Required<DeliveryOptions>;

/** One tenant's turn; an error ends that turn only (logged), never the cycle of the others. */
async function deliverTenantQueue(db: Db, tenantId: string, o: Resolved, report: CycleReport): Promise<void> {
  try {
    await drainTenantQueue(db, tenantId, o, report);
  } catch (err) {
    logger().error({ err, tenantId }, "delivery of this tenant's queue failed; it is retried at the next cycle");
  }
}

async function drainTenantQueue(db: Db, tenantId: string, o: Resolved, report: CycleReport): Promise<void> {
  const leaseMs = o.timeoutMs + 30_000;
  let claimed = await claimHead(db, tenantId, o.workerId, leaseMs);
  while (claimed) {
    const attempt = await send(claimed, o);
    if (!attempt.url) {
      await recordAttempt(db, claimed, o.workerId, attempt, o.retrySeconds, true);
      report.failed++;
      report.dropped++;
      claimed = await claimHead(db, tenantId, o.workerId, leaseMs);
      continue;
    }
    const { state, next } = await recordAndClaimNext(db, claimed, o.workerId, attempt, o.retrySeconds, leaseMs);
    if (state === "delivered") report.delivered++;
    else {
      report.failed++;
      if (state === "dropped") report.dropped++;
      else return; // the failed head waits for the next cycle, holding the rest back
    }
    claimed = next;
  }
}

/** Sends one attempt with the settings read at claim time (the current ones). */
async function send(claimed: Claimed, o: Resolved): Promise<Attempt> {
  const at = new Date();
  const { url, hmac, bearer, secret } = claimed.settings;
  if (!url) return { at, url: "", ok: false, statusCode: null, error: "no webhook URL is configured", durationMs: 0, responseExcerpt: null };
  const body = JSON.stringify(buildEnvelope(claimed.event, at));
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
  let out = text.replace(/\u0000/g, "\uFFFD");
  if (secret) out = out.split(secret).join("***");
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
