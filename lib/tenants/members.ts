import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { members, type MemberRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict, forbidden, notFound } from "../errors/domain-errors";
import { CreateMemberSchema, serializeMember, withImageColumn, type Member, type MemberListSchema } from "./member-schemas";
import { inTenantTransaction } from "../../db/transaction";

export async function listMembers({ db, actor }: MemberCtx): Promise<z.infer<typeof MemberListSchema>> {
  const rows = await db.select().from(members).where(eq(members.tenantId, actor.tenantId)).orderBy(asc(members.createdAt), asc(members.id));
  return { items: rows.map(serializeMember) };
}

export async function createMember({ db, actor }: MemberCtx, input: unknown): Promise<Member> {
  const data = withImageColumn(CreateMemberSchema.parse(input));
  if (data.role === "owner" && actor.role !== "owner") throw forbidden("Only an owner can add another owner.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    await assertEmailFree(tx, actor.tenantId, data.email);
    const [row] = await tx
      .insert(members)
      .values({ ...data, tenantId: actor.tenantId })
      .returning();
    return serializeMember(row);
  });
}

export async function getMemberInTenant(db: DbOrTx, tenantId: string, memberId: string): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, tenantId)))
    .limit(1);
  if (!row) throw notFound(`Member ${memberId} not found in this tenant.`);
  return row;
}

export async function assertEmailFree(db: DbOrTx, tenantId: string, email: string, exceptId?: string) {
  const [dup] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenantId), sql`lower(${members.email}) = ${email}`, exceptId ? ne(members.id, exceptId) : undefined))
    .limit(1);
  if (dup) throw conflict(`email: a member with e-mail ${email} already exists in this tenant.`);
}

export async function assertAnotherOwner(db: DbOrTx, tenantId: string, exceptId: string) {
  const [other] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenantId), eq(members.role, "owner"), eq(members.active, true), ne(members.id, exceptId)))
    .limit(1);
  if (!other) throw conflict("A tenant needs at least one active owner: make another member owner first.");
}
