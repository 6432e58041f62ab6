import { sql } from "drizzle-orm";
import { dbDriver, type DbOrTx } from "../../db/client";
import { afterCommit } from "../../db/transaction";
import { forgetAllSites } from "../sites/load-site";
import { forgetAllSiteConfigs } from "../sites/public-config";
import { invalidateTags } from "./page-store";

/** The PostgreSQL channel on which commits announce the page tags they changed to every process of every node. */
export const PAGE_CACHE_CHANNEL = "crm_page_cache";

/** Pages of a site (its settings, theme, menus, Puck pages, domain). */
export const siteTag = (siteId: string) => `s:${siteId}`;
/** Pages that show a tenant's data: its listings, developments, CMS entries, brokers. */
export const tenantTag = (tenantId: string) => `t:${tenantId}`;
/** A tenant's settings (languages, property types, branding): its sites' built configurations too. */
export const settingsTag = (tenantId: string) => `c:${tenantId}`;

/**
 * Drops the pages that show these tags, here and now. The sites' rows and built configurations are
 * kept a few seconds per process (load-site.ts, public-config.ts): a page rendered again from them
 * just after a site or settings change would be stored stale, so they are forgotten first.
 */
export function applyInvalidation(tags: Iterable<string>): void {
  const all = [...tags];
  if (all.some((t) => t.startsWith("s:") || t.startsWith("c:"))) {
    forgetAllSites();
    forgetAllSiteConfigs();
  }
  // A settings change shows on every page of the tenant's sites.
  invalidateTags(all.flatMap((t) => (t.startsWith("c:") ? [t, tenantTag(t.slice(2))] : [t])));
}

/** NOTIFY payloads are at most 8,000 bytes; a tag is at most 38. */
const TAGS_PER_NOTIFY = 150;

/**
 * Called in the transaction that changes what pages show. The announcement is a `pg_notify` in
 * that transaction: PostgreSQL delivers it to every listening process (lib/page-cache/listener.ts)
 * when, and only if, it commits, so no node learns of a change that rolled back, and every node
 * learns of it before the writer's client has its answer. This process drops its pages itself
 * once the transaction commits (after-commit hook), not waiting for its own notification.
 */
export async function pagesChanged(tx: DbOrTx, tags: string[]): Promise<void> {
  const acc = afterCommit(tx, "page-cache:invalidate", () => new Set<string>(), applyInvalidation);
  const fresh = [...new Set(tags)].filter((t) => !acc.has(t));
  if (!fresh.length) return;
  for (const t of fresh) acc.add(t);
  // The embedded database serves one process: the after-commit hook is all it needs.
  if ((await dbDriver()) !== "postgres") return;
  for (let i = 0; i < fresh.length; i += TAGS_PER_NOTIFY) {
    await tx.execute(sql`select pg_notify(${PAGE_CACHE_CHANNEL}, ${fresh.slice(i, i + TAGS_PER_NOTIFY).join(" ")})`);
  }
}

/** Pages that show these tenants' data (a site showing partners' listings carries their tags too: render-notes.ts). */
export async function tenantPagesChanged(tx: DbOrTx, tenantIds: string[]): Promise<void> {
  await pagesChanged(tx, tenantIds.map(tenantTag));
}
