import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";

/**
 * A claimed event as it is sent: its JSON columns as the database's text (`data::text`), put
 * into the body as they are instead of parsed and serialised again for every attempt.
 */
export type ClaimedEvent = {
  id: string;
  tenantId: string;
  eventName: string;
  entityType: string;
  entityId: string;
  userId: string | null;
  /** `data` as JSON text. */
  dataJson: string;
  /** `old` as JSON text, null when there is none. */
  oldJson: string | null;
  occurredAt: Date;
};

export type Claimed = {
  event: ClaimedEvent;
  /** Its place in the tenant's delivery queue. */
  queueSeq: number;
  failures: number;
  settings: { url: string | null; hmac: boolean; bearer: boolean; secret: string | null };
};

export type RawClaim = {
  id: string;
  tenant_id: string;
  event_name: string;
  entity_type: string;
  entity_id: string;
  user_id: string | null;
  data_json: string;
  old_json: string | null;
  occurred_at: string | Date;
  failures: number;
  queue_seq: string | number;
  url: string | null;
  hmac: boolean | null;
  bearer: boolean | null;
  secret: string | null;
};

/** The event's columns a claim reads (`e` is `events`): the JSON ones as text, see `ClaimedEvent`. */
export const CLAIMED_EVENT_COLUMNS = sql.raw(
  "e.id, e.tenant_id, e.event_name, e.entity_type, e.entity_id, e.user_id, e.data::text as data_json, e.old::text as old_json, e.occurred_at",
);

/**
 * Takes a lease on the tenant's head event if it is due and nobody holds it. The UPDATE is the
 * claim: a second worker either waits on the row lock and then sees the lease, or finds another
 * head, so one attempt is never made twice at once. The webhook settings are read in the same
 * statement, as they are at this moment (a rotated secret applies to the very next attempt).
 */
export async function claimHead(
  db: Db,
  tenantId: string,
  workerId: string,
  leaseMs: number,
  /** Claim this event instead of the head (the Test action delivers its event at once). */
  eventId?: string,
): Promise<Claimed | null> {
  const head = eventId
    ? sql`select event_id from event_deliveries where tenant_id = ${tenantId} and event_id = ${eventId}`
    : sql`select event_id from event_deliveries where tenant_id = ${tenantId} and state = 'pending' order by queue_seq limit 1`;
  const res = await db.execute(sql`
    with head as (${head}), claimed as (
      update event_deliveries d
      set locked_until = now() + make_interval(secs => ${leaseMs / 1000}), locked_by = ${workerId}
      from head
      where d.event_id = head.event_id and d.state = 'pending' and d.next_attempt_at <= now()
        and (d.locked_until is null or d.locked_until < now())
      returning d.event_id, d.failures, d.queue_seq
    )
    select ${CLAIMED_EVENT_COLUMNS}, c.failures, c.queue_seq, w.url, w.hmac, w.bearer, w.secret
    from claimed c
    join events e on e.id = c.event_id
    left join webhook_settings w on w.tenant_id = e.tenant_id`);
  const [r] = rowsOf<RawClaim>(res);
  return r ? toClaimed(r) : null;
}

export function toClaimed(r: RawClaim): Claimed {
  return {
    event: {
      id: r.id,
      tenantId: r.tenant_id,
      eventName: r.event_name,
      entityType: r.entity_type,
      entityId: r.entity_id,
      userId: r.user_id,
      dataJson: r.data_json,
      oldJson: r.old_json,
      occurredAt: new Date(r.occurred_at),
    },
    queueSeq: Number(r.queue_seq),
    failures: r.failures,
    settings: { url: r.url, hmac: Boolean(r.hmac), bearer: Boolean(r.bearer), secret: r.secret },
  };
}

export const MAX_FAILURES = 8;

/**
 * Records one attempt and moves the event on: delivered, pending until the next cycle, or dropped
 * after the 8th failure. Only the worker holding the lease may move it.
 */
export async function recordAttempt(
  db: Db,
  c: Claimed,
  workerId: string,
  a: { at: Date; url: string; ok: boolean; statusCode: number | null; error: string | null; durationMs: number; responseExcerpt: string | null },
  retrySeconds: number,
  /** Drop now whatever the count (the tenant removed its webhook URL). */
  forceDrop = false,
): Promise<"delivered" | "pending" | "dropped"> {
  const res = await db.execute(sql`
    with attempt as (
      insert into delivery_attempts (tenant_id, event_id, at, url, status_code, error, duration_ms, response_excerpt)
      values (${c.event.tenantId}, ${c.event.id}, ${a.at.toISOString()}, ${a.url}, ${a.statusCode}, ${a.error}, ${a.durationMs}, ${a.responseExcerpt})
    )
    update event_deliveries set
      state = (case when ${a.ok} then 'delivered' when ${forceDrop} or failures + 1 >= ${MAX_FAILURES} then 'dropped' else 'pending' end)::delivery_state,
      failures = case when ${a.ok} then failures else failures + 1 end,
      next_attempt_at = case when ${a.ok} then next_attempt_at else now() + make_interval(secs => ${retrySeconds}) end,
      finished_at = case when ${a.ok} or ${forceDrop} or failures + 1 >= ${MAX_FAILURES} then now() else null end,
      locked_until = null, locked_by = null
    where event_id = ${c.event.id} and locked_by = ${workerId}
    returning state`);
  const [r] = rowsOf<{ state: "delivered" | "pending" | "dropped" }>(res);
  return r?.state ?? "pending";
}

export type Attempt = {
  at: Date;
  url: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
};
