import { and, eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { forbidden, invalid } from "../errors/domain-errors";
import { handOverDealsOf } from "../deals/transfer";
import { UpdateMemberSchema, serializeMember, withImageColumn, type Member } from "../tenants/member-schemas";
import { assertAnotherOwner, assertEmailFree, getMemberInTenant } from "../tenants/members";
import { tenantPagesChanged } from "../page-cache/invalidate";

/**
 * Changes a member, and what follows from it across domains: a deactivated broker's open deals are
 * handed over in the same transaction (`distribution.transferred` each). Kept here, above tenants
 * and deals, so neither domain imports the other.
 */
export async function updateMember({ db, actor }: MemberCtx, { id: memberId, body: input }: { id: string; body: unknown }): Promise<Member> {
  const { transferDealsTo, ...data } = withImageColumn(UpdateMemberSchema.parse(input));
  if (Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  if (transferDealsTo !== undefined && data.active !== false) throw invalid("transferDealsTo: only with active: false (it names who takes over the deals).");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const current = await getMemberInTenant(tx, actor.tenantId, memberId);
    // Listing pages show the broker's card.
    await tenantPagesChanged(tx, [actor.tenantId]);
    const touchesOwner = current.role === "owner" || data.role === "owner";
    if (touchesOwner && actor.role !== "owner" && (data.role !== undefined || data.active !== undefined)) {
      throw forbidden("Only an owner can change an owner's role or status, or make someone an owner.");
    }
    if (data.email && data.email !== current.email) await assertEmailFree(tx, actor.tenantId, data.email, memberId);
    const losesOwner = current.role === "owner" && current.active && (data.active === false || (data.role && data.role !== "owner"));
    if (losesOwner) await assertAnotherOwner(tx, actor.tenantId, memberId);
    const [row] = await tx
      .update(members)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(members.id, memberId), eq(members.tenantId, actor.tenantId)))
      .returning();
    // A deactivated broker's open deals are handed over in the same transaction (distribution.transferred each).
    if (current.active && data.active === false) await handOverDealsOf(tx, actor, memberId, transferDealsTo ?? actor.userId);
    return serializeMember(row);
  });
}
