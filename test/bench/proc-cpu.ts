import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (user + system, ms) used so far by the server's processes and by the PostgreSQL
 * processes serving a benchmark's database, read from `/proc` (Linux only; empty elsewhere). Two
 * snapshots around a phase give each role's CPU per unit of work, which on a shared machine says
 * more than a rate: other engineers' load slows the rate, not the CPU a message costs.
 * Roles: `web` (web processes), `jobs` (the jobs worker), `launcher`, `postgres` (backends of
 * `dbName` plus the server's own background processes: WAL writer, checkpointer...).
 */
export type CpuSnapshot = Record<"web" | "jobs" | "launcher" | "postgres", number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

function stat(pid: string): { ppid: string; comm: string; ms: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = s.lastIndexOf(")");
    const comm = s.slice(s.indexOf("(") + 1, close);
    const f = s.slice(close + 2).split(" ");
    // After the comm: state(0) ppid(1) ... utime(11) stime(12).
    return { ppid: f[1], comm, ms: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return null;
  }
}

const cmdline = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

export function cpuSnapshot(rootPid: number, dbName: string): CpuSnapshot {
  const out: CpuSnapshot = { web: 0, jobs: 0, launcher: 0, postgres: 0 };
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  const stats = new Map<string, NonNullable<ReturnType<typeof stat>>>();
  for (const p of pids) {
    const s = stat(p);
    if (s) stats.set(p, s);
  }
  const underRoot = (pid: string) => {
    for (let p: string | undefined = pid, n = 0; p && p !== "0" && n < 20; p = stats.get(p)?.ppid, n++) if (p === String(rootPid)) return true;
    return false;
  };
  for (const [pid, s] of stats) {
    if (s.comm === "postgres") {
      const title = cmdline(pid);
      // A backend's title names its database; the server's own processes name none.
      const backend = /\d\(\d+\)|\[local\]/.test(title);
      if (!backend || title.includes(` ${dbName} `)) out.postgres += s.ms;
    } else if (underRoot(pid)) {
      const cmd = cmdline(pid);
      if (cmd.includes("web-server-cli")) out.web += s.ms;
      else if (cmd.includes("jobs-worker-cli")) out.jobs += s.ms;
      else out.launcher += s.ms;
    }
  }
  return out;
}

/** CPU ms per unit of work between two snapshots, as one line. */
export function cpuPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number, unit: string): string {
  const per = (k: keyof CpuSnapshot) => ((after[k] - before[k]) / units).toFixed(2);
  return `CPU per ${unit}: web processes ${per("web")} ms, jobs worker ${per("jobs")} ms, launcher ${per("launcher")} ms, PostgreSQL ${per("postgres")} ms`;
}
