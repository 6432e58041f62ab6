import { and, eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../db/client";
import { afterCommit } from "../../db/transaction";
import { sites, type SiteRow } from "../../db/schema";
import { DomainError, notFound } from "../errors/domain-errors";
import { UUID_PATTERN } from "../schemas/uuid";
import { domainOfHost } from "./domain/domain-name";
import { servesNoSite } from "./domain/domain-policy";
import { processGlobal } from "../util/process-global";
import { pagesChanged, siteTag } from "../page-cache/invalidate";

/**
 * Sites are read on every public request and change rarely: rows are kept a few seconds per
 * process. A change made in this process drops its entry at once (after commit); other processes
 * see it within the TTL.
 */
const SITE_TTL_MS = 5_000;
const cache = processGlobal("site-rows", () => new LRUCache<string, SiteRow | "missing">({ max: 5000, ttl: SITE_TTL_MS }));

export function forgetSite(row: Pick<SiteRow, "id" | "domain">): void {
  cache.delete(`id:${row.id}`);
  cache.delete(`domain:${row.domain}`);
}

/** Every site this process keeps (another process changed one: lib/page-cache/invalidate.ts). */
export function forgetAllSites(): void {
  cache.clear();
}

async function cached(key: string, load: () => Promise<SiteRow | undefined>): Promise<SiteRow | null> {
  const hit = cache.get(key);
  if (hit) return hit === "missing" ? null : hit;
  const row = await load();
  cache.set(key, row ?? "missing");
  return row ?? null;
}

export const siteNotFound = () => notFound("Site not found");

/**
 * A site for a public endpoint. Unknown (or not a UUID) or inactive: 404 `Site not found`; the
 * property detail answers 403 `Site not active` for an inactive site instead (spec 2 §7).
 */
export async function loadPublicSite(db: DbOrTx, siteId: string, opts: { inactive?: "not_found" | "forbidden" } = {}): Promise<SiteRow> {
  if (!UUID_PATTERN.test(siteId)) throw siteNotFound();
  const id = siteId.toLowerCase();
  const row = await cached(`id:${id}`, async () => (await db.select().from(sites).where(eq(sites.id, id)).limit(1))[0]);
  if (!row) throw siteNotFound();
  if (!row.active) throw opts.inactive === "forbidden" ? new DomainError("forbidden", "forbidden", "Site not active") : siteNotFound();
  return row;
}

/**
 * The site that holds a host name (any spelling of it: case, port, trailing dot), or null. Only a
 * held name serves: a custom domain waiting for its DNS proof, or a claim another site won, does not.
 */
export async function siteByDomain(db: DbOrTx, host: string): Promise<SiteRow | null> {
  const d = domainOfHost(host);
  if (!d || servesNoSite(d)) return null;
  return cached(
    `domain:${d}`,
    async () =>
      (
        await db
          .select()
          .from(sites)
          .where(and(eq(sites.domain, d), eq(sites.domainStatus, "active")))
          .limit(1)
      )[0],
  );
}

/**
 * Public reads cache sites for a few seconds: this process forgets changed ones once the change
 * commits; their cached pages go everywhere (lib/page-cache), and other processes forget their rows then too.
 */
export async function forgetSitesAfterCommit(tx: DbOrTx, rows: Pick<SiteRow, "id" | "domain">[]): Promise<void> {
  afterCommit(
    tx,
    "sites:forget",
    () => [] as Pick<SiteRow, "id" | "domain">[],
    (all) => all.forEach(forgetSite),
  ).push(...rows);
  await pagesChanged(
    tx,
    rows.map((r) => siteTag(r.id)),
  );
}
