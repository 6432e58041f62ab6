import fs from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock of its own: two processes opening one folder both succeed and corrupt it.
 * We keep a pid file beside the folder, created exclusively (`wx`), and refuse to open while
 * another live process holds it. A lock left by a dead process is taken over.
 */
export function acquireDirLock(dir: string): () => void {
  // Owner-only, like the data folder it usually sits in (see private-dir.ts).
  fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true, mode: 0o700 });
  const lockFile = `${path.resolve(dir)}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx", mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw err;
      const holder = Number(readOr(lockFile, ""));
      if (holder === process.pid) break;
      if (holder && isAlive(holder)) {
        throw new Error(
          `The embedded database ${dir} is in use by process ${holder}. Stop that process (the running ` +
            `server or a script) first, or set DATABASE_URL to use PostgreSQL.`,
        );
      }
      // Stale lock of a process that is gone: remove it and race for it again.
      fs.rmSync(lockFile, { force: true });
    }
  }
  const release = () => {
    if (readOr(lockFile, "") === String(process.pid)) fs.rmSync(lockFile, { force: true });
  };
  process.once("exit", release);
  return release;
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return fallback;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
