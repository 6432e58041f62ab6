import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { members, messagingSentMessages } from "../../../db/schema";

/** Who typed our outbound messages: only sends through the service have an author, named from the directory. */
export async function authorsOf(db: DbOrTx, channelId: string, ids: string[]) {
  const out = new Map<string, { authorId: string; name: string | null }>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: messagingSentMessages.providerMessageId, authorId: messagingSentMessages.authorId, name: members.name })
    .from(messagingSentMessages)
    .leftJoin(members, eq(members.id, messagingSentMessages.authorId))
    .where(and(eq(messagingSentMessages.channelId, channelId), inArray(messagingSentMessages.providerMessageId, ids)));
  for (const r of rows) if (r.authorId) out.set(r.id, { authorId: r.authorId, name: r.name });
  return out;
}
