import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { members } from "../../db/schema";
import { toE164 } from "../schemas/phone";
import { invalid } from "../errors/domain-errors";

type AssignmentInput = { assignedToId?: string | null; assignedToEmail?: string; assignedToPhone?: string };

/**
 * Resolves the responsible member by precedence id, e-mail, phone, against active members of the
 * tenant only. `undefined` means no assignment field was sent; no match is a 400.
 */
export async function resolveAssignee(tx: DbOrTx, tenantId: string, a: AssignmentInput): Promise<string | null | undefined> {
  const active = (cond: SQL) =>
    tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.tenantId, tenantId), eq(members.active, true), cond))
      .limit(1);
  if (a.assignedToId !== undefined) {
    if (a.assignedToId === null) return null;
    const [m] = await active(eq(members.id, a.assignedToId));
    if (!m) throw invalid(`assignedToId: no active member ${a.assignedToId} in this tenant.`);
    return m.id;
  }
  if (a.assignedToEmail !== undefined) {
    const [m] = await active(sql`lower(${members.email}) = ${a.assignedToEmail.toLowerCase()}`);
    if (!m) throw invalid(`assignedToEmail: no active member of this tenant has the e-mail ${a.assignedToEmail}.`);
    return m.id;
  }
  if (a.assignedToPhone !== undefined) {
    const phone = toE164(a.assignedToPhone);
    if (!phone) throw invalid(`assignedToPhone: '${a.assignedToPhone}' is not a valid phone number.`);
    const [m] = await active(eq(members.phone, phone));
    if (!m) throw invalid(`assignedToPhone: no active member of this tenant has the phone ${phone}.`);
    return m.id;
  }
  return undefined;
}
