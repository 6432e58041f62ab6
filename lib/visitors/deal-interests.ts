import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { dealInterests, INTEREST_KINDS } from "../../db/schema";

export const DealInterestSchema = z
  .object({
    listingId: z.uuid(),
    kind: z.enum(INTEREST_KINDS).meta({
      description: "`favourite`: hearted on the site; `viewed`: its page opened after the visitor identified; `compared`: in the compare view.",
    }),
    at: z.string().meta({ description: "When the visitor first did it (ISO 8601 UTC)." }),
  })
  .meta({ id: "DealInterest" });

export type DealInterest = z.infer<typeof DealInterestSchema>;

/** A deal's interests, oldest first (the caller has already checked the deal is visible to it). */
export async function interestsOfDeal(db: DbOrTx, tenantId: string, dealId: string): Promise<DealInterest[]> {
  const rows = await db
    .select({ listingId: dealInterests.listingId, kind: dealInterests.kind, at: dealInterests.at })
    .from(dealInterests)
    .where(and(eq(dealInterests.tenantId, tenantId), eq(dealInterests.dealId, dealId)))
    .orderBy(asc(dealInterests.at), asc(dealInterests.listingId), asc(dealInterests.kind));
  return rows.map((r) => ({ listingId: r.listingId, kind: r.kind, at: r.at.toISOString() }));
}
