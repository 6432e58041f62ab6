import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { CLAIMED_EVENT_COLUMNS, type Claimed, type RawClaim, toClaimed } from "./claim";

/** A tenant's claimed run: consecutive events from its queue head, in queue order. */
export type TenantRun = { tenantId: string; events: Claimed[] };

export type BatchClaim = {
  /** At most this many tenants (their heads must be due and free). */
  tenants: number;
  /** At most this many events of each tenant, taken from its head onwards. */
  perTenant: number;
  /** Only this tenant (a lane asking for its tenant's next run). */
  tenantId?: string;
  /**
   * With `tenantId`: the events right behind this queue position, which ends a run this worker
   * holds (a lane claims its next run while it sends the current one). The head is then this
   * worker's own and is not checked.
   */
  afterSeq?: number;
  /** Not these tenants (the ones this worker's lanes are serving: each asks for its own next run). */
  exclude?: string[];
};

/**
 * Claims, in one statement, the heads of up to `tenants` tenants whose head is due and free, each
 * with the events queued right behind it (up to `perTenant`): one round trip hands a worker several
 * hundred events. The rows are taken with `FOR UPDATE SKIP LOCKED`, so two workers claiming at the
 * same moment never wait on each other nor take the same row; of what it could lock, a worker keeps
 * for each tenant only the unbroken run from the head (a row another worker holds ends the run),
 * so a tenant's events are never split between two workers and are sent in queue order.
 * The webhook settings are read in the same statement, as they are now.
 */
export async function claimBatch(db: Db, workerId: string, leaseMs: number, b: BatchClaim): Promise<TenantRun[]> {
  const candidates = b.tenantId
    ? sql`candidates as (select ${b.tenantId}::uuid as tenant_id)`
    : // Tenants with pending events, found by skipping through the pending index (one probe per
      // tenant) rather than reading every pending row, so a long backlog costs nothing here.
      sql`pending_tenants as (
      (select tenant_id from event_deliveries where state = 'pending' order by tenant_id limit 1)
      union all
      select (select d.tenant_id from event_deliveries d where d.state = 'pending' and d.tenant_id > p.tenant_id order by d.tenant_id limit 1)
      from pending_tenants p where p.tenant_id is not null
    ), candidates as (
      select tenant_id from pending_tenants
      where tenant_id is not null and tenant_id <> all(${`{${(b.exclude ?? []).join(",")}}`}::uuid[])
    )`;
  const heads =
    b.tenantId && b.afterSeq !== undefined
      ? sql`heads as (select ${b.tenantId}::uuid as tenant_id)`
      : sql`${candidates}, heads as (
      select h.tenant_id, h.queue_seq from candidates c cross join lateral (
        select d.tenant_id, d.queue_seq, d.next_attempt_at, d.locked_until from event_deliveries d
        where d.tenant_id = c.tenant_id and d.state = 'pending' order by d.queue_seq limit 1
      ) h
      where h.next_attempt_at <= now() and (h.locked_until is null or h.locked_until < now())
      -- The longest-waiting heads first when more tenants are due than this worker takes.
      order by h.queue_seq limit ${b.tenants}
    )`;
  const after = b.afterSeq !== undefined ? sql`and d.queue_seq > ${b.afterSeq}` : sql``;
  const res = await db.execute(sql`
    with recursive ${heads}, picked as (
      select p.event_id, p.tenant_id, p.queue_seq from heads h cross join lateral (
        select d.event_id, d.tenant_id, d.queue_seq from event_deliveries d
        where d.tenant_id = h.tenant_id and d.state = 'pending' ${after} order by d.queue_seq limit ${b.perTenant}
      ) p
    ), locked as materialized (
      select d.event_id from event_deliveries d
      where d.event_id in (select event_id from picked) and d.state = 'pending' and d.next_attempt_at <= now()
        and (d.locked_until is null or d.locked_until < now())
      for update skip locked
    ), run as (
      select event_id from (
        select p.event_id, bool_and(p.event_id in (select event_id from locked)) over (partition by p.tenant_id order by p.queue_seq) as unbroken
        from picked p
      ) r where unbroken
    ), claimed as (
      update event_deliveries d
      set locked_until = now() + make_interval(secs => ${leaseMs / 1000}), locked_by = ${workerId}
      from run where d.event_id = run.event_id
      returning d.event_id, d.failures, d.queue_seq
    )
    select ${CLAIMED_EVENT_COLUMNS}, c.failures, c.queue_seq, w.url, w.hmac, w.bearer, w.secret
    from claimed c
    join events e on e.id = c.event_id
    left join webhook_settings w on w.tenant_id = e.tenant_id
    order by e.tenant_id, c.queue_seq`);
  const runs = new Map<string, Claimed[]>();
  for (const r of rowsOf<RawClaim>(res)) {
    const c = toClaimed(r);
    const list = runs.get(c.event.tenantId);
    if (list) list.push(c);
    else runs.set(c.event.tenantId, [c]);
  }
  return [...runs].map(([tenantId, events]) => ({ tenantId, events }));
}
