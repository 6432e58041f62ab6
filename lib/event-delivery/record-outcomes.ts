import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { type Attempt, MAX_FAILURES } from "./claim";

export type DeliveryState = "delivered" | "pending" | "dropped";

/**
 * What became of one claimed event: an attempt (`attempt` set; `forceDrop` when the tenant has no
 * URL any more), or a release (`attempt` null): the event was claimed but not sent because an
 * earlier one of its tenant failed, and goes back to the queue untouched.
 */
export type Outcome = { eventId: string; tenantId: string; attempt: Attempt | null; forceDrop?: boolean };

/** Largest batch one statement records; more waits for the next. */
const MAX_BATCH = 1000;

/**
 * Records the outcomes of many deliveries, of any tenants, in one statement (group commit): every
 * lane hands its outcomes over and goes on sending, and whatever arrived while the previous batch
 * was being written goes out in the next. Only the worker holding a lease moves its event.
 */
export class OutcomeRecorder {
  private queue: { o: Outcome; resolve: (s: DeliveryState) => void; reject: (e: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
    private readonly retrySeconds: number,
  ) {}

  /** Resolves with the event's state once its outcome is stored (a release resolves `pending`). */
  record(o: Outcome): Promise<DeliveryState> {
    return new Promise((resolve, reject) => {
      this.queue.push({ o, resolve, reject });
      // Started on the next turn, so the outcomes several lanes produce together share a statement.
      if (!this.flushing) this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const states = await recordOutcomes(
          this.db,
          this.workerId,
          batch.map((b) => b.o),
          this.retrySeconds,
        );
        for (const b of batch) b.resolve(states.get(b.o.eventId) ?? "pending");
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = null;
  }
}

/**
 * One statement for a batch: the attempts go to the log, each attempted event becomes delivered,
 * pending until the retry interval has passed, or dropped at the 8th failure; released events
 * lose their lease only. Returns the state of each event this worker still held.
 */
export async function recordOutcomes(db: Db, workerId: string, outcomes: Outcome[], retrySeconds: number): Promise<Map<string, DeliveryState>> {
  if (!outcomes.length) return new Map();
  const rows = outcomes.map(({ eventId, tenantId, attempt: a, forceDrop }) => ({
    event_id: eventId,
    tenant_id: tenantId,
    sent: a !== null,
    ok: a?.ok ?? false,
    force_drop: Boolean(forceDrop),
    at: a?.at.toISOString() ?? null,
    url: a?.url ?? null,
    status_code: a?.statusCode ?? null,
    error: a?.error ?? null,
    duration_ms: a?.durationMs ?? null,
    response_excerpt: a?.responseExcerpt ?? null,
  }));
  const res = await db.execute(sql`
    with o as materialized (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(
        event_id uuid, tenant_id uuid, sent boolean, ok boolean, force_drop boolean, at timestamptz,
        url text, status_code integer, error text, duration_ms integer, response_excerpt text)
    ), attempts as (
      insert into delivery_attempts (tenant_id, event_id, at, url, status_code, error, duration_ms, response_excerpt)
      -- The log has no foreign keys (see its table): an event deleted meanwhile gets no row.
      select tenant_id, event_id, at, url, status_code, error, duration_ms, response_excerpt from o
      where sent and exists (select from events e where e.id = o.event_id)
    )
    update event_deliveries d set
      state = (case when not o.sent then 'pending' when o.ok then 'delivered'
        when o.force_drop or d.failures + 1 >= ${MAX_FAILURES} then 'dropped' else 'pending' end)::delivery_state,
      failures = case when o.sent and not o.ok then d.failures + 1 else d.failures end,
      next_attempt_at = case when o.sent and not o.ok then now() + make_interval(secs => ${retrySeconds}) else d.next_attempt_at end,
      finished_at = case when o.sent and (o.ok or o.force_drop or d.failures + 1 >= ${MAX_FAILURES}) then now() else null end,
      locked_until = null, locked_by = null
    from o
    where d.event_id = o.event_id and d.tenant_id = o.tenant_id and d.state = 'pending' and d.locked_by = ${workerId}
    returning d.event_id, d.state`);
  return new Map(rowsOf<{ event_id: string; state: DeliveryState }>(res).map((r) => [r.event_id, r.state]));
}
