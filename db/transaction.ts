import { sql } from "drizzle-orm";
import { logger } from "../lib/log/logger";
import { withLogContext } from "../lib/log/log-context";
import type { DbOrTx, Tx } from "./client";
import { processGlobal } from "../lib/util/process-global";

/**
 * Transactions that own their after-commit work.
 *
 * A write's side effects outside the database (waking event delivery, pushing search documents to
 * Typesense) must happen only once the write is durable, and whoever made it (an HTTP route, the
 * seed, a CLI, an Inngest function) must not have to remember them. So the transaction keeps them:
 * code inside it registers a hook with `afterCommit`, and the hooks run once, after the outermost
 * transaction commits, never on rollback. A verb called inside another verb's transaction joins it
 * (`inTransaction` on an open transaction runs the function in it), so its hooks wait for the outer
 * commit too.
 */
type Hook = { acc: unknown; run: (acc: unknown) => void | Promise<void> };
type TxState = { hooks: Map<string, Hook>; lockedTenants: Set<string> };

const open = new WeakMap<object, TxState>();
const pending = processGlobal("after-commit", () => new Set<Promise<void>>());

/** True inside a transaction opened by `inTransaction` (so work can join it). */
export function isOpenTransaction(db: DbOrTx): boolean {
  return open.has(db);
}

/** Runs `fn` in a transaction: joins the caller's when one is open, else opens one and runs its hooks after commit. */
export async function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (open.has(db)) return fn(db as Tx);
  const state: TxState = { hooks: new Map(), lockedTenants: new Set() };
  const result = await db.transaction(async (tx) => {
    open.set(tx, state);
    try {
      return await fn(tx as Tx);
    } finally {
      open.delete(tx);
    }
  });
  for (const [key, hook] of state.hooks) runHook(key, hook);
  return result;
}

/**
 * A tenant's write transaction: takes the tenant row lock first (once per transaction), so a
 * tenant's writes run one after another: no lost updates between a property PATCH and a listing
 * PATCH, and outbox order equal to commit order. Every lock a write takes later comes after this
 * one, which keeps them from deadlocking. Writes are short; tenants do not wait for each other.
 */
export function inTenantTransaction<T>(db: DbOrTx, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // Every log line of the work (jobs included) and of its after-commit hooks names the tenant.
  return withLogContext({ tenantId }, () => inTenantWork(db, tenantId, fn));
}

function inTenantWork<T>(db: DbOrTx, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    const state = open.get(tx)!;
    if (state.lockedTenants.has(tenantId)) return fn(tx);
    state.lockedTenants.add(tenantId);
    // The lock is sent, not awaited: the work's first statements leave with it (pipelined on the
    // transaction's connection: one socket write and one round trip less), and the server runs them
    // after it, so it is still the first lock taken. A failed lock fails the work's statements
    // behind it ("transaction aborted"): its own error is the one thrown. It is awaited before the
    // transaction ends either way, so it never runs after a rollback (issue 34: CPU a statement).
    const lock = tx.execute(sql`select 1 from tenants where id = ${tenantId} for no key update`).then(
      () => null,
      (err: unknown) => ({ err }),
    );
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      throw (await lock)?.err ?? err;
    }
    const failed = await lock;
    if (failed) throw failed.err;
    return result;
  });
}

/**
 * `Promise.all` for statements sent together on one transaction's connection (pipelined: one
 * round trip for all), but it waits for every one before throwing the first failure, so none is
 * still in flight when the transaction rolls back (it would then run outside it).
 */
export async function settleAll<T extends readonly unknown[]>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * Registers work to run once after the open transaction commits. Hooks are keyed: the first
 * registration of a key creates its accumulator (`init`), later ones in the same transaction get the
 * same accumulator to add to, and `run` receives it after commit. Throws when `db` is not a
 * transaction opened by `inTransaction`: the work would otherwise be lost or run too early.
 */
export function afterCommit<A>(db: DbOrTx, key: string, init: () => A, run: (acc: A) => void | Promise<void>): A {
  const state = open.get(db);
  if (!state) {
    throw new Error(`After-commit work '${key}' needs a transaction opened with inTransaction() or inTenantTransaction().`);
  }
  let hook = state.hooks.get(key);
  if (!hook) {
    hook = { acc: init(), run: run as Hook["run"] };
    state.hooks.set(key, hook);
  }
  return hook.acc as A;
}

/** Hooks run in the background: the caller already has its committed result. Failures are logged. */
function runHook(key: string, hook: Hook): void {
  const p: Promise<void> = Promise.resolve()
    .then(() => hook.run(hook.acc))
    .catch((err) => logger().error({ err, hook: key }, "after-commit work failed"))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Waits for after-commit work already started (graceful shutdown, tests). */
export async function settleAfterCommit(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}
