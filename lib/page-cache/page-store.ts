import { gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { processGlobal } from "../util/process-global";

/** A rendered page as it was answered: status 200, its headers (no cookies), its body. */
export type StoredPage = {
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The same body gzipped, made on the first hit that accepts it. */
  gzip?: Buffer;
  tags: string[];
  /** The listing view the page counts (a listing page): a hit counts it too. */
  view?: { tenantId: string; listingId: string };
  /** Kept at most until then (epoch ms): the page shows something that changes with the clock. */
  until?: number;
};

/**
 * The page cache of this process: entries by key (host, path, query, scheme), each with the tags of
 * what it shows (its site, its tenants). A tag invalidated drops every entry that carries it.
 *
 * A render that started before an invalidation may finish after it with what the database held
 * before the commit: every invalidation takes the next number of a counter, and a render may store
 * its page only if none of its tags (nor a full clear) was invalidated after it started.
 */
type Store = {
  pages: LRUCache<string, StoredPage>;
  byTag: Map<string, Set<string>>;
  /** The counter's value when each tag was last invalidated. */
  tagAt: Map<string, number>;
  clearedAt: number;
  counter: number;
};

const MAX_BYTES = 256 * 1024 * 1024;
/**
 * Only an upper bound: entries go when what they show changes. It bounds what no commit announces
 * (the year in the footer, a few-second cache of network membership) and memory kept for pages nobody asks again.
 */
const TTL_MS = 10 * 60_000;

const store = processGlobal(
  "page-cache",
  (): Store => ({
    pages: new LRUCache<string, StoredPage>({
      maxSize: MAX_BYTES,
      ttl: TTL_MS,
      sizeCalculation: (p) => p.body.length + (p.gzip?.length ?? 0) + 512,
      // Evicted or replaced: its key leaves the tag index too, so the index never outgrows the cache.
      dispose: (p, key) => unindex(key, p.tags),
    }),
    byTag: new Map(),
    tagAt: new Map(),
    clearedAt: 0,
    counter: 0,
  }),
);

function unindex(key: string, tags: string[]): void {
  for (const t of tags) {
    const keys = store.byTag.get(t);
    if (!keys) continue;
    keys.delete(key);
    if (!keys.size) store.byTag.delete(t);
  }
}

/** Where the counter stands: a render notes it when it starts and hands it to `storePage`. */
export function cacheMark(): number {
  return store.counter;
}

export function cachedPage(key: string): StoredPage | undefined {
  return store.pages.get(key);
}

/** The entry's gzip body, made once. */
export function gzipOf(page: StoredPage): Buffer {
  page.gzip ??= gzipSync(page.body);
  return page.gzip;
}

/** Stores a page rendered since `mark`, unless what it shows changed meanwhile (then the next request renders again). */
export function storePage(key: string, page: StoredPage, mark: number): boolean {
  if (store.clearedAt > mark) return false;
  if (page.tags.some((t) => (store.tagAt.get(t) ?? 0) > mark)) return false;
  const ttl = page.until === undefined ? undefined : page.until - Date.now();
  if (ttl !== undefined && ttl <= 0) return false;
  store.pages.set(key, page, ttl === undefined ? undefined : { ttl: Math.min(ttl, TTL_MS) });
  for (const t of page.tags) {
    let keys = store.byTag.get(t);
    if (!keys) store.byTag.set(t, (keys = new Set()));
    keys.add(key);
  }
  return true;
}

/** Drops every page that shows one of these tags (and keeps renders in flight from storing theirs). */
export function invalidateTags(tags: Iterable<string>): void {
  const at = ++store.counter;
  for (const t of tags) {
    store.tagAt.set(t, at);
    const keys = store.byTag.get(t);
    if (!keys) continue;
    for (const k of [...keys]) store.pages.delete(k);
  }
  // The invalidation times are needed only while a render that started before them may still store.
  if (store.tagAt.size > 10_000) pruneTagTimes();
}

/** Everything (notifications may have been missed). */
export function clearPages(): void {
  store.clearedAt = ++store.counter;
  store.pages.clear();
  store.tagAt.clear();
}

/**
 * Many tags invalidated: their times are forgotten and, for the renders in flight, this counts as a
 * full clear (they store nothing); the stored pages were dropped with their tags already.
 */
function pruneTagTimes(): void {
  store.clearedAt = store.counter;
  store.tagAt.clear();
}

export function pageCacheSize(): { pages: number; bytes: number } {
  return { pages: store.pages.size, bytes: store.pages.calculatedSize };
}
