import type postgres from "postgres";
import { dbDriver, getDb, sessionClient } from "../../db/client";
import { config } from "../config";
import { logger } from "../log/logger";
import { processGlobal } from "../util/process-global";
import { applyInvalidation, PAGE_CACHE_CHANNEL } from "./invalidate";
import { clearPages } from "./page-store";

const g = processGlobal("page-cache-listener", () => ({ started: undefined as Promise<void> | undefined, live: false }));

/**
 * True while this process hears every invalidation: on the embedded database (one process, the
 * after-commit hooks) at once; on PostgreSQL once its LISTEN is in place. Until then pages are
 * neither served from the cache nor stored in it.
 */
export function pageCacheLive(): boolean {
  return g.live;
}

/**
 * The moment the LISTEN connection closes, the cache stops serving (and is emptied): what is
 * announced until postgres.js has listened again would be missed. postgres.js (3.4) runs `listen`
 * on an inner client whose `onclose` listens again and which it exposes as `listen.sql`; this wraps
 * that `onclose`. Without it (another version) a gap still ends with the cache emptied when the
 * LISTEN is back (above), but pages could be served from it during the gap.
 */
function noticeClose(client: postgres.Sql): void {
  const inner = (client.listen as unknown as { sql?: { options?: { onclose?: (...a: unknown[]) => unknown } } }).sql;
  const options = inner?.options;
  if (!options || typeof options.onclose !== "function") {
    logger().warn("page cache: cannot tell when the LISTEN connection closes (postgres.js changed); pages may be served stale while it reconnects");
    return;
  }
  const relisten = options.onclose;
  options.onclose = (...a: unknown[]) => {
    g.live = false;
    clearPages();
    return relisten(...a);
  };
}

/**
 * One LISTEN connection per process, straight to PostgreSQL (DATABASE_DIRECT_URL behind a
 * transaction-mode pooler, which cannot hold a LISTEN). postgres.js listens again after a lost
 * connection; what was announced meanwhile is lost, so the cache is emptied when it is back.
 */
export function startPageCacheListener(): Promise<void> {
  g.started ??= (async () => {
    if ((await dbDriver()) !== "postgres") {
      g.live = true;
      return;
    }
    // As the web-chat bus: postgres.js gives `listen` a connection of its own on the pool's database,
    // or on PostgreSQL itself behind a transaction-mode pooler (DATABASE_DIRECT_URL).
    const client = config().DATABASE_DIRECT_URL ? sessionClient("crm-page-cache") : ((await getDb()) as unknown as { $client: postgres.Sql }).$client;
    await client.listen(
      PAGE_CACHE_CHANNEL,
      (payload) => applyInvalidation(payload.split(" ")),
      () => {
        // First LISTEN or again after a reconnect: nothing cached can be trusted past a gap.
        clearPages();
        g.live = true;
      },
    );
    noticeClose(client);
  })().catch((err) => {
    g.started = undefined;
    g.live = false;
    logger().warn({ err }, "page cache: could not LISTEN for invalidations; pages are rendered uncached until it can");
  });
  return g.started;
}
