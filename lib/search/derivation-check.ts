import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { logger } from "../log/logger";
import { derivedTokens } from "./filter";
import { derivedSql } from "./filter/compile-sql";
import { FOLD_FROM } from "./filter/normalize";

/** Every character `storedTokens` lets the database derive: the folded letters and printable ASCII. */
const SAMPLE = FOLD_FROM + Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

let agrees: Promise<boolean> | undefined;

/**
 * Whether this database derives tokens as `derivedTokens` predicts (its `unaccent` rules are a file
 * an installation may change): checked once per process, before the first search document is
 * written. If not, every token column keeps its copy, so filters stay exact whatever the rules.
 */
export function derivationAgrees(db: DbOrTx): Promise<boolean> {
  agrees ??= check(db).catch((err) => {
    agrees = undefined;
    throw err;
  });
  return agrees;
}

async function check(db: DbOrTx): Promise<boolean> {
  const [r] = rowsOf<{ d: string }>(await db.execute(sql`select ${derivedSql(sql`${SAMPLE}::text`)} as d`));
  const ok = r.d === derivedTokens(SAMPLE);
  if (!ok)
    logger().error(
      { database: r.d, expected: derivedTokens(SAMPLE) },
      "the database's unaccent does not fold accents as the search tokenizer does: search documents keep a copy of every token (larger tables, same results)",
    );
  return ok;
}
