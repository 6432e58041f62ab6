import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { apiKeys, type ApiKeyRow } from "../../db/schema";
import { forbidden, invalid, notFound } from "../errors/domain-errors";
import { getMemberInTenant } from "../tenants/members";
import type { MemberCtx } from "../context/verb-context";
import { itemsSchema } from "../schemas/paging";
import { generateApiKey } from "./api-key-secret";

export const ScopeSchema = z.enum(["broad", "restricted"]).meta({
  description: "`broad`: sees what the member's role sees. `restricted`: sees only what a broker sees.",
});

export const CreateApiKeySchema = z
  .strictObject({
    userId: z.uuid().meta({ description: "Member the key acts as." }),
    name: z.string().trim().min(1).max(100),
    scope: ScopeSchema.default("broad"),
  })
  .meta({ id: "CreateApiKey" });

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: "First characters of the key, to tell keys apart." }),
    userId: z.uuid(),
    scope: ScopeSchema,
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "ApiKey" });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({ description: "The secret. Shown only in this response; store it now." }),
}).meta({ id: "CreatedApiKey" });

export type ApiKey = z.infer<typeof ApiKeySchema>;

/** `listApiKeys`. */
export const ApiKeyListSchema = itemsSchema(ApiKeySchema, "ApiKeyList");

export function serializeApiKey(k: ApiKeyRow): ApiKey {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    userId: k.memberId,
    scope: k.scope,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
    createdAt: k.createdAt.toISOString(),
  };
}

/** Issues a key for a member; the secret is returned once and only its hash is kept. */
export async function issueApiKey(
  db: DbOrTx,
  tenantId: string,
  memberId: string,
  name: string,
  scope: "broad" | "restricted",
): Promise<ApiKey & { key: string }> {
  const { key, prefix, hash } = generateApiKey();
  const [row] = await db.insert(apiKeys).values({ tenantId, memberId, name, prefix, hash, scope }).returning();
  return { ...serializeApiKey(row), key };
}

export async function listApiKeys({ db, actor }: MemberCtx): Promise<z.infer<typeof ApiKeyListSchema>> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.tenantId, actor.tenantId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { items: rows.map(serializeApiKey) };
}

export async function createApiKey({ db, actor }: MemberCtx, input: unknown) {
  const data = CreateApiKeySchema.parse(input);
  const member = await getMemberInTenant(db, actor.tenantId, data.userId).catch(() => {
    throw invalid(`userId: no member ${data.userId} in this tenant.`);
  });
  if (!member.active) throw invalid(`userId: member ${member.id} is inactive; activate it before issuing keys.`);
  // A key acts as its member: an admin issuing one for an owner would gain the owner's powers.
  if (member.role === "owner" && actor.role !== "owner") throw forbidden("Only an owner can issue keys for an owner.");
  return issueApiKey(db, actor.tenantId, member.id, data.name, data.scope);
}

/** Revocation takes effect on the next request: authentication filters on `revoked_at`. */
export async function revokeApiKey({ db, actor }: MemberCtx, keyId: string): Promise<ApiKey> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenantId, actor.tenantId)))
    .limit(1);
  if (!row) throw notFound(`API key ${keyId} not found in this tenant.`);
  if (actor.role !== "owner" && (await getMemberInTenant(db, actor.tenantId, row.memberId)).role === "owner") {
    throw forbidden("Only an owner can revoke an owner's keys.");
  }
  if (row.revokedAt) return serializeApiKey(row);
  const [updated] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenantId, actor.tenantId)))
    .returning();
  return serializeApiKey(updated);
}
