import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";

/**
 * Round robin over the channel's queue, skipping inactive members. The channel's cursor moves in
 * the same statement that picks the turn (its row lock held until commit), so concurrent leads of
 * one channel never land on the same turn; one round trip inside the tenant's lock.
 * Returns null when the queue has no active member (the deal stays unassigned, the cursor stays).
 */
export async function nextInQueue(tx: DbOrTx, tenantId: string, channelId: string): Promise<string | null> {
  const res = await tx.execute(sql`
    with queue as (
      select q.member_id, row_number() over (order by q.position) - 1 as turn, count(*) over () as size
      from distribution_queue_members q
      join members m on m.id = q.member_id and m.tenant_id = ${tenantId}
      where q.channel_instance_id = ${channelId} and q.tenant_id = ${tenantId} and m.active
    ), moved as (
      update marketing_channel_instances set distribution_cursor = distribution_cursor + 1
      where id = ${channelId} and tenant_id = ${tenantId} and exists (select 1 from queue)
      returning distribution_cursor - 1 as cursor
    )
    select queue.member_id from queue, moved where queue.turn = moved.cursor % queue.size`);
  return rowsOf<{ member_id: string }>(res)[0]?.member_id ?? null;
}
