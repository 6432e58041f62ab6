import { createHash } from "node:crypto";
import { type SQL, and, eq, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { config } from "../../config";
import { messagingSendKeys } from "../../../db/schema";
import { conflict, unavailable } from "../../errors/domain-errors";
import type { SendAck } from "./ack";

type Scope = { tenantId: string; apiKeyId: string; key: string };

const where = (s: Scope) =>
  and(eq(messagingSendKeys.tenantId, s.tenantId), eq(messagingSendKeys.apiKeyId, s.apiKeyId), eq(messagingSendKeys.idempotencyKey, s.key));

export function requestHash(input: unknown): string {
  return createHash("sha256").update(JSON.stringify(input)).digest("base64url");
}

export type Claim = { kind: "claimed" } | { kind: "replay"; ack: SendAck };

const WAIT_MS = 25_000;
/**
 * A claim without an ack this old belongs to a process that died between claiming and answering:
 * every live send ends within its budget. Past it the claim is settled (see `claimSendKey`).
 */
const staleClaimMs = () => 2 * config().MESSAGING_SEND_TIMEOUT_MS + 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The `send_idempotency` gate. The key's row is inserted with ON CONFLICT DO NOTHING: exactly one
 * of two requests arriving together inserts it (the primary key decides, not a read before the
 * write) and sends; the other waits for the first ack and answers it with `idempotent: true`. A
 * different body under a used key is a 409. The insert runs outside any caller transaction's
 * effects only if `db` is the pool: callers pass the root database, so the claim is visible at once.
 *
 * A stale claim (its process died mid-send) is settled with `unknownOutcome`, the ack of a send
 * that may or may not have left: the resend answers it rather than waiting forever or sending a
 * possible second copy, the same choice as a gateway timeout.
 */
export async function claimSendKey(db: DbOrTx, scope: Scope, hash: string, unknownOutcome: () => SendAck): Promise<Claim> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const inserted = await db
      .insert(messagingSendKeys)
      .values({ tenantId: scope.tenantId, apiKeyId: scope.apiKeyId, idempotencyKey: scope.key, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: messagingSendKeys.idempotencyKey });
    if (inserted.length) return { kind: "claimed" };
    const [row] = await db.select().from(messagingSendKeys).where(where(scope)).limit(1);
    if (row) {
      if (row.requestHash && row.requestHash !== hash) {
        throw conflict(
          "body field `idempotencyKey`: this key was already used for a different request; use a new key for a new message.",
          "idempotency_key_reused",
        );
      }
      if (row.ack) return { kind: "replay", ack: row.ack as unknown as SendAck };
      if (Date.now() - row.createdAt.getTime() > staleClaimMs()) {
        const ack = unknownOutcome();
        const settled = await db
          .update(messagingSendKeys)
          .set({ ack: ack as unknown as Record<string, unknown> })
          .where(and(where(scope), isNull(messagingSendKeys.ack), lt(messagingSendKeys.createdAt, new Date(Date.now() - staleClaimMs()))))
          .returning({ ack: messagingSendKeys.ack });
        if (settled.length) return { kind: "replay", ack };
        continue; // another request settled or answered it a moment ago: read its ack
      }
    }
    // The first request is still sending (or released the key a moment ago): wait for its answer.
    if (Date.now() > deadline)
      throw unavailable("A request with this idempotencyKey is still being sent; retry with the same key shortly.", "idempotency_in_progress");
    await sleep(row ? 50 : 0);
  }
}

/** Stores the first ack: every resend answers it. */
export async function completeSendKey(db: DbOrTx, scope: Scope, ack: SendAck): Promise<void> {
  await db.execute(completeSendKeySql(scope, ack, sql`true`));
}

/**
 * `completeSendKey` as a statement to run inside another: an agent's reply stores its ack in the
 * statement that records the send (`recordSent`'s `also`, whose `locked` goes in `where`).
 */
export function completeSendKeySql(scope: Scope, ack: SendAck, locked: SQL): SQL {
  return sql`update ${messagingSendKeys} set ack = ${JSON.stringify(ack)}::jsonb
    where tenant_id = ${scope.tenantId} and api_key_id = ${scope.apiKeyId} and idempotency_key = ${scope.key} and ack is null and ${locked}`;
}

/** Frees a key whose send surely did not happen (the gateway refused), so a resend may try again. */
export async function releaseSendKey(db: DbOrTx, scope: Scope): Promise<void> {
  await db.delete(messagingSendKeys).where(and(where(scope), isNull(messagingSendKeys.ack)));
}
