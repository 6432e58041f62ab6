import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeys, members } from "../../db/schema";
import { unauthorized } from "../errors/domain-errors";
import { accessOf, type MemberActor } from "../context/actor";
import { hashApiKey } from "./api-key-secret";
import { bearerToken } from "./bearer";

/** `lastUsedAt` is refreshed at most this often, so reads do not turn into a write each. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** Extracts the key from `Authorization: Bearer` (or `x-api-key` where a surface allows it). */
export function readApiKey(headers: Headers, allowXApiKey = false): string | null {
  // An Authorization header of another scheme is a wrong credential, not a reason to look elsewhere.
  if (headers.has("authorization")) return bearerToken(headers);
  return allowXApiKey ? headers.get("x-api-key")?.trim() || null : null;
}

export async function authenticateApiKey(db: Db, key: string | null): Promise<MemberActor> {
  if (!key) throw unauthorized("Missing API key: send it as 'Authorization: Bearer <API_KEY>'.");
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      tenantId: apiKeys.tenantId,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
      userId: members.id,
      role: members.role,
    })
    .from(apiKeys)
    .innerJoin(members, and(eq(members.id, apiKeys.memberId), eq(members.tenantId, apiKeys.tenantId)))
    .where(and(eq(apiKeys.hash, hashApiKey(key)), isNull(apiKeys.revokedAt), eq(members.active, true)))
    .limit(1);
  if (!row) throw unauthorized("Invalid API key: it is unknown, revoked, or its member is inactive.");

  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return {
    kind: "member",
    tenantId: row.tenantId,
    userId: row.userId,
    role: row.role,
    scope: row.scope,
    keyId: row.keyId,
    access: accessOf(row.role, row.scope),
  };
}
