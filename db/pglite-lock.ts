import fs from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock of its own: two processes opening one folder both succeed and corrupt it.
 * We keep a pid file beside the folder and refuse to open while another live process holds it.
 */
export function acquireDirLock(dir: string): () => void {
  fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  const lockFile = `${path.resolve(dir)}.lock`;
  try {
    const holder = Number(fs.readFileSync(lockFile, "utf8").trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database ${dir} is in use by process ${holder}. Stop that process (the running ` +
          `server or a script) first, or set DATABASE_URL to use PostgreSQL.`,
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(lockFile, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", release);
  return release;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
