import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { config } from "../config";

/**
 * Proves at start that the database answers, so a wrong host or password stops the server with
 * one line naming the problem instead of a server that answers 500 to everything. The line names
 * host, port, user and database, never the password.
 */
export async function checkDatabase(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = (async () => (await getDb()).execute(sql`select 1`))();
    // A server that never answers must stop start-up within 15 s, loading included: the check gives
    // up after 8 s at most (the pool's own connect timeout may be longer, for slow networks at run
    // time). The embedded database is local: opening a new one takes its time and cannot hang on a network.
    if (!config().DATABASE_URL) await answer;
    else {
      const seconds = Math.min(config().DATABASE_CONNECT_TIMEOUT_SECONDS, 8);
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${seconds} s`), { code: "CONNECT_TIMEOUT" })), seconds * 1000);
      });
      await Promise.race([answer, deadline]);
    }
  } catch (err) {
    throw new Error(describeConnectionProblem(config().DATABASE_URL, err));
  } finally {
    clearTimeout(timer);
  }
}

export function describeConnectionProblem(databaseUrl: string | undefined, err: unknown): string {
  const e = rootCause(err);
  let reason = (e?.message || e?.errors?.map((x) => x.message).join("; ") || String(err)).replace(/\s+/g, " ").trim();
  if (!databaseUrl) return `Cannot open the embedded database: ${reason}`;
  let where = "the PostgreSQL server in DATABASE_URL";
  try {
    const u = new URL(databaseUrl);
    const password = decodeURIComponent(u.password);
    if (password) reason = reason.split(password).join("***");
    const db = decodeURIComponent(u.pathname.replace(/^\//, "")) || decodeURIComponent(u.username) || "(default)";
    where = `PostgreSQL at ${u.hostname}:${u.port || "5432"} as user "${decodeURIComponent(u.username)}", database "${db}"`;
  } catch {
    // An unparsable URL is reported by the configuration check; keep the generic wording.
  }
  const code = e?.code ? ` [${e.code}]` : "";
  return `Cannot connect to ${where}: ${reason}${code}. Check DATABASE_URL (host, port, user, password, database) and that the server is running.`;
}

type ErrorLike = { code?: string; message?: string; errors?: { message?: string }[]; cause?: unknown };

/** Drizzle wraps driver errors ("Failed query: ..."); the driver's error (with its code) is the reason. */
function rootCause(err: unknown): ErrorLike | undefined {
  let e = err as ErrorLike | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (e.code || !e.cause) return e;
    e = e.cause as ErrorLike;
  }
  return e;
}
