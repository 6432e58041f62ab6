import { count, eq, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { listings, tenants } from "../../db/schema";
import { inTransaction, settleAfterCommit } from "../../db/transaction";
import { notFound } from "../errors/domain-errors";
import { reindexListings } from "./index-listings";
import { pushAllDocuments } from "./index-sync";
import { searchIndexWriter } from "./index-writer";

export type ReindexProgress =
  | { kind: "start"; total: number }
  | { kind: "batch"; done: number; tenant: string }
  | { kind: "pushed"; tenantId: string; documents: number };

/**
 * Rebuilds the search documents of one tenant (slug or id) or of all, then pushes them to the
 * external engine when one is configured. Batches of 500 listings in their own transactions: short,
 * so a running server is never held up for long.
 */
export async function reindexAll(
  db: Db,
  opts: { tenant?: string; onProgress?: (p: ReindexProgress) => void } = {},
): Promise<{ listings: number; tenants: number; pushed: number }> {
  const where = opts.tenant ? or(eq(tenants.slug, opts.tenant), sql`${tenants.id}::text = ${opts.tenant}`) : undefined;
  const targets = await db.select({ id: tenants.id, slug: tenants.slug }).from(tenants).where(where);
  if (opts.tenant && !targets.length) throw notFound(`No tenant with slug or id '${opts.tenant}'.`);
  const [{ n }] = await db
    .select({ n: count() })
    .from(listings)
    .where(opts.tenant ? eq(listings.tenantId, targets[0].id) : undefined);
  const writer = await searchIndexWriter();
  // Before the batches: their after-commit pushes need the collection to exist.
  await writer?.ensureCollection();
  opts.onProgress?.({ kind: "start", total: Number(n) });
  let done = 0;
  for (const t of targets) {
    const ids = (await db.select({ id: listings.id }).from(listings).where(eq(listings.tenantId, t.id))).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      await inTransaction(db, (tx) => reindexListings(tx, t.id, batch));
      done += batch.length;
      opts.onProgress?.({ kind: "batch", done, tenant: t.slug });
    }
  }
  // Each batch was pushed after its commit (failures only logged); the full push is the checked one.
  await settleAfterCommit();
  const pushed = writer
    ? await pushAllDocuments(
        db,
        writer,
        targets.map((t) => t.id),
        (tenantId, documents) => opts.onProgress?.({ kind: "pushed", tenantId, documents }),
      )
    : 0;
  return { listings: done, tenants: targets.length, pushed };
}
