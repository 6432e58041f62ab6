import type { DbOrTx } from "../../db/client";
import type { Actor, MemberActor } from "./actor";

/**
 * What every domain verb receives first: `verb(ctx, input)`. `db` is the database or a transaction
 * that is already open (the verb then joins it, see `db/transaction.ts`), `tenantId` the tenant the
 * work belongs to, `actor` who does it. Routes, Inngest functions, CLIs and the seed build one and
 * call the same verbs.
 */
export type Ctx<A extends Actor = Actor> = { db: DbOrTx; tenantId: string; actor: A };

/** The context of a member acting through an API key (today's REST verbs). */
export type MemberCtx = Ctx<MemberActor>;

export function memberCtx(db: DbOrTx, actor: MemberActor): MemberCtx {
  return { db, tenantId: actor.tenantId, actor };
}
