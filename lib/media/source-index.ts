import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { processGlobal } from "../util/process-global";
import { mediaCacheDir } from "./media-settings";

/**
 * What the service learnt of a photo's source: the hash of its bytes. Kept on disk (one small
 * file per source, shared by every process) and in memory, so a page can write the hash into the
 * photo's address, and a source is fetched once, not once per width or per process.
 */
export type SourceEntry = { hash: string; at: number; etag?: string; lastModified?: string };
export type Validators = Pick<SourceEntry, "etag" | "lastModified">;

/** How long a page trusts that a source it has not seen is still unknown (one cheap file check per source at most this often). */
const UNKNOWN_FOR_MS = 5000;

const memory = () => processGlobal("media-source-index", () => new LRUCache<string, SourceEntry | { unknownUntil: number }>({ max: 50_000 }));

const keyOf = (src: string) => createHash("sha256").update(src).digest("hex").slice(0, 32);
const fileOf = (src: string) => {
  const k = keyOf(src);
  return path.join(mediaCacheDir(), "sources", k.slice(0, 2), `${k}.json`);
};

/** The source's entry, or null when the service has not loaded it yet. Synchronous: pages call it while rendering. */
export function knownSource(src: string): SourceEntry | null {
  const m = memory().get(src);
  if (m && "hash" in m) return m;
  if (m && m.unknownUntil > Date.now()) return null;
  try {
    const e = JSON.parse(fs.readFileSync(fileOf(src), "utf8")) as SourceEntry;
    if (typeof e.hash === "string" && /^[0-9a-f]{20}$/.test(e.hash)) {
      memory().set(src, e);
      return e;
    }
  } catch {
    // Not loaded yet (or a half-written file from a crash): unknown.
  }
  memory().set(src, { unknownUntil: Date.now() + UNKNOWN_FOR_MS });
  return null;
}

export function rememberSource(src: string, hash: string, validators: Validators = {}): void {
  const e: SourceEntry = { hash, at: Date.now(), ...validators };
  memory().set(src, e);
  const file = fileOf(src);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole then renamed: a reader never sees half an entry.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(e));
  fs.renameSync(tmp, file);
}

export function forgetSourcesForTests(): void {
  memory().clear();
}
