import fs from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { config } from "../config";
import { logger } from "../log/logger";
import { processGlobal } from "../util/process-global";
import { mediaCacheDir } from "./media-settings";

/**
 * Keeps `MEDIA_CACHE_DIR` under `MEDIA_CACHE_MAX_MB`: each process counts the bytes it writes on
 * top of one scan of the folder, and past the limit removes the least recently used variants and
 * originals in the background, down to 80 % of it (so a full cache is not pruned on every write).
 * "Used" is the file's access time, which the photo route sets at most once an hour per file
 * (`noteCacheUse`): the file system's own atime is often off (noatime) or daily (relatime). The
 * source index (`sources/`, a few hundred bytes per photo) is kept: a pruned variant is made again
 * from its source, at the same address.
 */
const PRUNED_TO = 0.8;
const TOUCH_EVERY_MS = 3_600_000;

type State = { total: number | null; scanning: Promise<void> | null; pruning: Promise<PruneResult> | null };
const state = () => processGlobal("media-cache-size", (): State => ({ total: null, scanning: null, pruning: null }));
const touched = () => processGlobal("media-cache-touched", () => new LRUCache<string, number>({ max: 50_000 }));

export type PruneResult = { files: number; removed: number; freedBytes: number; totalBytes: number };

const limitBytes = () => Math.floor(config().MEDIA_CACHE_MAX_MB * 1024 * 1024);

/** A file was written to the cache: counted, and a prune starts when the cache passed its limit. */
export function noteCacheWrite(bytes: number): void {
  const s = state();
  if (s.total === null) {
    // The first write of the process learns what is already there (the scan counts this file too).
    s.scanning ??= cachedFiles()
      .then((files) => {
        s.total = files.reduce((a, f) => a + f.size, 0);
        if (s.total > limitBytes()) void pruneInBackground();
      })
      .catch((err) => logger().warn({ err }, "photo cache: could not be measured"))
      .finally(() => {
        s.scanning = null;
      });
    return;
  }
  s.total += bytes;
  if (s.total > limitBytes()) void pruneInBackground();
}

/** A cached file was served: its access time says so (at most once an hour per file, off the request's path). */
export function noteCacheUse(file: string): void {
  const now = Date.now();
  const last = touched().get(file);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
  touched().set(file, now);
  const at = new Date(now);
  fs.stat(file)
    .then((st) => fs.utimes(file, at, st.mtime))
    .catch(() => {});
}

function pruneInBackground(): Promise<PruneResult> {
  const s = state();
  s.pruning ??= pruneMediaCache()
    .catch((err) => {
      logger().warn({ err }, "photo cache: prune failed");
      return { files: 0, removed: 0, freedBytes: 0, totalBytes: s.total ?? 0 };
    })
    .finally(() => {
      s.pruning = null;
    });
  return s.pruning;
}

type CachedFile = { file: string; size: number; usedAt: number };

/** Every variant and original in the cache with its size and last use (the later of access and write). */
async function cachedFiles(): Promise<CachedFile[]> {
  const out: CachedFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && !e.name.endsWith(".tmp")) {
        const st = await fs.stat(p).catch(() => null);
        if (st) out.push({ file: p, size: st.size, usedAt: Math.max(st.atimeMs, st.mtimeMs) });
      }
    }
  };
  await walk(path.join(mediaCacheDir(), "variants"));
  await walk(path.join(mediaCacheDir(), "originals"));
  return out;
}

/**
 * Removes the least recently used files until the cache holds at most 80 % of `limit` (when it
 * holds more than `limit`). Safe while photos are served: a removed variant is made again on its
 * next request, and files are written under a temporary name first, so none is half there.
 */
export async function pruneMediaCache(limit = limitBytes()): Promise<PruneResult> {
  const files = await cachedFiles();
  let total = files.reduce((a, f) => a + f.size, 0);
  const before = total;
  let removed = 0;
  if (total > limit) {
    files.sort((a, b) => a.usedAt - b.usedAt);
    for (const f of files) {
      if (total <= limit * PRUNED_TO) break;
      const gone = await fs.rm(f.file).then(
        () => true,
        () => false,
      );
      if (!gone) continue;
      total -= f.size;
      removed++;
      touched().delete(f.file);
      // A variant's folder (one per source hash) goes with its last width.
      await fs.rmdir(path.dirname(f.file)).catch(() => {});
    }
  }
  state().total = total;
  if (removed) logger().info({ removed, freedBytes: before - total, totalBytes: total }, "photo cache pruned");
  return { files: files.length, removed, freedBytes: before - total, totalBytes: total };
}

/** Waits for this process's measuring and pruning to finish (tests). */
export async function mediaCacheSettled(): Promise<void> {
  const s = state();
  while (s.scanning || s.pruning) await (s.scanning ?? s.pruning);
}

export function forgetMediaCacheSizeForTests(): void {
  const s = state();
  s.total = null;
  touched().clear();
}
