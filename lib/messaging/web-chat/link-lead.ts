import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";

/**
 * Once a web chat's lead is processed, its conversation takes the lead's deal and that deal's
 * contact (`links.primaryDealId`, `links.customerId`), unless a member linked it already. Runs in
 * the lead's processing transaction, so the deal and the link appear together.
 */
export async function linkChatLeads(tx: DbOrTx, leadIds: string[]): Promise<void> {
  if (!leadIds.length) return;
  await tx.execute(sql`
    update messaging_conversations c
       set primary_deal_id = coalesce(c.primary_deal_id, (l.deal_ids->>0)::uuid),
           customer_id = coalesce(c.customer_id, (select dc.contact_id from deal_contacts dc where dc.deal_id = (l.deal_ids->>0)::uuid limit 1))
      from web_chat_sessions s
      join inbound_leads l on l.id = s.inbound_lead_id
     where s.inbound_lead_id = any(${`{${leadIds.join(",")}}`}::uuid[])
       and l.status = 'processed' and jsonb_array_length(l.deal_ids) > 0
       and c.channel_id = s.channel_id and c.chat_id = s.chat_id and c.tenant_id = s.tenant_id`);
}
