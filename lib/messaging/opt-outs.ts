import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { messagingOptOuts } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { PhoneSchema } from "../schemas/phone";
import type { MemberCtx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import { itemsSchema } from "../schemas/paging";

export const AddOptOutSchema = z.strictObject({ phone: PhoneSchema, reason: z.string().trim().max(500).optional() }).meta({ id: "AddOptOut" });
export const RemoveOptOutQuery = z.strictObject({ phone: PhoneSchema });
export const OptOutSchema = z.object({ phone: z.string(), reason: z.string().nullable(), createdAt: z.string() }).meta({ id: "OptOut" });

/** `listOptOuts`. */
export const OptOutListSchema = itemsSchema(OptOutSchema);

const present = (r: typeof messagingOptOuts.$inferSelect): z.infer<typeof OptOutSchema> => ({
  phone: r.phone,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
});

export async function listOptOuts(ctx: MemberCtx): Promise<z.infer<typeof OptOutListSchema>> {
  const rows = await ctx.db.select().from(messagingOptOuts).where(eq(messagingOptOuts.tenantId, ctx.tenantId)).orderBy(asc(messagingOptOuts.createdAt));
  return { items: rows.map(present) };
}

/** Adding a phone twice keeps the first entry (and its reason). */
export async function addOptOut(ctx: MemberCtx, body: unknown) {
  const data = AddOptOutSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tx
      .insert(messagingOptOuts)
      .values({ tenantId: ctx.tenantId, phone: data.phone, reason: data.reason ?? null })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(messagingOptOuts)
      .where(and(eq(messagingOptOuts.tenantId, ctx.tenantId), eq(messagingOptOuts.phone, data.phone)));
    return present(row);
  });
}

/** `DELETE .../opt-outs?phone=`: `phone` is already normalised by `RemoveOptOutQuery`. */
export async function removeOptOut(ctx: MemberCtx, phone: string) {
  const parsed = { data: { phone } };
  const gone = await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
    tx
      .delete(messagingOptOuts)
      .where(and(eq(messagingOptOuts.tenantId, ctx.tenantId), eq(messagingOptOuts.phone, parsed.data.phone)))
      .returning(),
  );
  if (!gone.length) throw notFound(`No opt-out for ${parsed.data.phone}.`);
}

/** The outreach_safety lookup: is this E.164 phone on the tenant's opt-out list? */
export async function isOptedOut(db: MemberCtx["db"], tenantId: string, e164: string): Promise<boolean> {
  const [r] = await db
    .select({ phone: messagingOptOuts.phone })
    .from(messagingOptOuts)
    .where(and(eq(messagingOptOuts.tenantId, tenantId), eq(messagingOptOuts.phone, e164)))
    .limit(1);
  return Boolean(r);
}
