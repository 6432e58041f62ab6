import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";

/**
 * A write transaction of one tenant. It takes the tenant row lock first, so a tenant's writes
 * run one after another: no lost updates between a property PATCH and a listing PATCH, no two
 * owners demoting each other, and outbox order equal to commit order. Every lock a write takes
 * later comes after this one, which keeps them from deadlocking. Writes are short; tenants do not
 * wait for each other.
 */
export function tenantTransaction<T>(db: Db, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from tenants where id = ${tenantId} for no key update`);
    return fn(tx as Tx);
  });
}
