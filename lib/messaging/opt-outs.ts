import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { messagingOptOuts } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { PhoneSchema } from "../schemas/phone";
import { EmailAddressSchema } from "./email/settings";
import type { MemberCtx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import { itemsSchema } from "../schemas/paging";

/** Exactly one of `phone` (WhatsApp, web chat) or `email` (e-mail channels): the list holds both, one handle per row. */
const oneHandle = (v: { phone?: string; email?: string }, ctx: z.RefinementCtx) => {
  if ((v.phone === undefined) === (v.email === undefined)) ctx.addIssue({ code: "custom", path: ["phone"], message: "send exactly one of `phone` or `email`" });
};
export const AddOptOutSchema = z
  .strictObject({
    phone: PhoneSchema.optional(),
    email: EmailAddressSchema.optional().meta({ description: "An e-mail address (e-mail channels check it)." }),
    reason: z.string().trim().max(500).optional(),
  })
  .superRefine(oneHandle)
  .meta({ id: "AddOptOut" });
export const RemoveOptOutQuery = z.strictObject({ phone: PhoneSchema.optional(), email: EmailAddressSchema.optional() }).superRefine(oneHandle);
export const OptOutSchema = z
  .object({
    phone: z.string().nullable().meta({ description: "The E.164 phone; null for an e-mail entry." }),
    email: z.string().nullable().meta({ description: "The e-mail address; null for a phone entry." }),
    reason: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "OptOut" });

/** `listOptOuts`. */
export const OptOutListSchema = itemsSchema(OptOutSchema);

// The column holds the handle: an E.164 phone, or an e-mail address (it has an `@`).
const present = (r: typeof messagingOptOuts.$inferSelect): z.infer<typeof OptOutSchema> => ({
  phone: r.phone.includes("@") ? null : r.phone,
  email: r.phone.includes("@") ? r.phone : null,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
});

export async function listOptOuts(ctx: MemberCtx): Promise<z.infer<typeof OptOutListSchema>> {
  const rows = await ctx.db.select().from(messagingOptOuts).where(eq(messagingOptOuts.tenantId, ctx.tenantId)).orderBy(asc(messagingOptOuts.createdAt));
  return { items: rows.map(present) };
}

/** Adding a phone twice keeps the first entry (and its reason). */
export async function addOptOut(ctx: MemberCtx, body: unknown) {
  const parsed = AddOptOutSchema.parse(body);
  const data = { phone: (parsed.phone ?? parsed.email) as string, reason: parsed.reason };
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

/** `DELETE .../opt-outs?phone=` or `?email=`: the handle is already normalised by `RemoveOptOutQuery`. */
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

/** The outreach_safety lookup: is this E.164 phone (or lower-case e-mail address) on the tenant's opt-out list? */
export async function isOptedOut(db: MemberCtx["db"], tenantId: string, e164: string): Promise<boolean> {
  const [r] = await db
    .select({ phone: messagingOptOuts.phone })
    .from(messagingOptOuts)
    .where(and(eq(messagingOptOuts.tenantId, tenantId), eq(messagingOptOuts.phone, e164)))
    .limit(1);
  return Boolean(r);
}
