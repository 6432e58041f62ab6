import fs from "node:fs";
import path from "node:path";

/**
 * The data folder holds webhook secrets, API key hashes, owners' personal data and the operator
 * token, so nobody but the service's own user may read it: folders 0700, files 0600.
 *
 * Why modes are set explicitly rather than through `process.umask(0o077)`: PGlite writes its
 * files through Emscripten's NODEFS, which applies the modes the WebAssembly side asks for with
 * `chmod` (0666 for the files unpacked at initdb, 0644 for `pg_internal.init`), so the process
 * umask has no effect on them (checked on PGlite 0.5: the same modes under umask 000, 022 and
 * 077). A process-wide umask would also change every other file the server writes. What protects
 * the data is the 0700 folder (others cannot even look inside it); the file modes are repaired
 * as well so that copying the folder elsewhere does not widen access.
 */

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) as 0700, and makes an existing `dir` 0700. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  restrict(dir, DIR_MODE);
}

/**
 * The data folder itself 0700 and the files directly in it (operator token, demo credentials,
 * the database lock) 0600. Subfolders other than the database's are left as they are: a
 * `DATA_DIR` pointed at a folder with other content must not have, say, executables stripped of
 * their modes, and the 0700 folder already keeps everyone else out of them.
 */
export function secureDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) restrict(path.join(dataDir, entry.name), FILE_MODE);
  }
}

/**
 * The embedded database folder, which is all ours: every folder in it 0700 and every file 0600,
 * created when missing. Returns how many modes it changed (0 on a folder already private).
 */
export function makeTreePrivate(dir: string): number {
  ensurePrivateDir(dir);
  let changed = 0;
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      // Symbolic links are never followed: a link planted in the folder must not make us chmod its target.
      if (entry.isDirectory()) {
        if (restrict(p, DIR_MODE)) changed++;
        walk(p);
      } else if (entry.isFile() && restrict(p, FILE_MODE)) changed++;
    }
  };
  walk(dir);
  return changed;
}

/**
 * chmod to `mode` unless already there. Skips what is not ours (chmod would fail with EPERM) and
 * shared sticky folders such as /tmp, which must never become private; true when it changed one.
 */
function restrict(p: string, mode: number): boolean {
  const st = fs.lstatSync(p);
  if ((st.mode & 0o7777) === mode) return false;
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) return false;
  if (st.isDirectory() && st.mode & 0o1000) return false;
  fs.chmodSync(p, mode);
  return true;
}
