import { and, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { listings, tenants } from "../../db/schema";
import { conflict } from "../errors/domain-errors";

const PREFIX: Record<string, string> = {
  apartment: "AP",
  house: "CA",
  condo_house: "CC",
  penthouse: "CO",
  studio: "ST",
  land: "TE",
  commercial: "CM",
  office: "SL",
  farm: "SI",
};

/**
 * Next automatic code such as `AP0042`. The counter lives on the tenant row, so the UPDATE's
 * row lock serialises concurrent creates; a code taken by hand is skipped.
 */
export async function nextListingCode(tx: DbOrTx, tenantId: string, propertyType: string): Promise<string> {
  const prefix = PREFIX[propertyType] ?? "IM";
  for (;;) {
    const [{ seq }] = await tx
      .update(tenants)
      .set({ listingCodeSeq: sql`${tenants.listingCodeSeq} + 1` })
      .where(eq(tenants.id, tenantId))
      .returning({ seq: tenants.listingCodeSeq });
    const code = `${prefix}${String(seq).padStart(4, "0")}`;
    if (!(await codeTaken(tx, tenantId, code))) return code;
  }
}

export async function assertCodeFree(tx: DbOrTx, tenantId: string, code: string, field: string, exceptId?: string) {
  if (await codeTaken(tx, tenantId, code, exceptId)) {
    throw conflict(`${field}: '${code}' is already used by another listing of this tenant.`);
  }
}

async function codeTaken(tx: DbOrTx, tenantId: string, code: string, exceptId?: string): Promise<boolean> {
  const [hit] = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.tenantId, tenantId), eq(listings.listingCode, code), exceptId ? ne(listings.id, exceptId) : undefined))
    .limit(1);
  return Boolean(hit);
}
