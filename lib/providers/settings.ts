import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { providerNotifications, providerSettings, type ProviderSettingsRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import { seal } from "../messaging/secret-box";
import type { z } from "zod";
import {
  CreateProviderSchema,
  serializeNotification,
  serializeProvider,
  type ListNotificationsQueryInput,
  type Provider,
  type ProviderCreated,
  type ProviderListSchema,
  type ProviderNotificationPageSchema,
} from "./schemas";

/** 192 random bits each: the receiver's path token (`prv_`) and its secret (`prvsec_`). */
const random = () => randomBytes(24).toString("base64url");
export const PROVIDER_TOKEN_PATTERN = /^prv_[A-Za-z0-9_-]{32}$/;

/** `POST /api/v1/settings/providers`: the secret is answered this once and stored sealed (AES-256-GCM). */
export async function createProvider({ db, actor }: MemberCtx, input: { body: unknown; origin: string }): Promise<ProviderCreated> {
  const data = CreateProviderSchema.parse(input.body);
  const secret = `prvsec_${random()}`;
  const row = await inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [r] = await tx
      .insert(providerSettings)
      .values({
        tenantId: actor.tenantId,
        kind: data.kind,
        name: data.name,
        pathToken: `prv_${random()}`,
        secret: seal(secret),
        signatureHeader: data.signatureHeader,
      })
      .returning();
    return r;
  });
  return { ...serializeProvider(row, input.origin), secret };
}

export async function listProviders({ db, actor }: MemberCtx, origin: string): Promise<z.infer<typeof ProviderListSchema>> {
  const rows = await db.select().from(providerSettings).where(eq(providerSettings.tenantId, actor.tenantId)).orderBy(desc(providerSettings.createdAt));
  return { items: rows.map((r) => serializeProvider(r, origin)) };
}

async function loadProvider({ db, actor }: MemberCtx, id: string): Promise<ProviderSettingsRow> {
  const [row] = await db
    .select()
    .from(providerSettings)
    .where(and(eq(providerSettings.id, id), eq(providerSettings.tenantId, actor.tenantId)))
    .limit(1);
  if (!row) throw notFound(`Provider ${id} not found.`);
  return row;
}

export async function getProvider(ctx: MemberCtx, input: { id: string; origin: string }): Promise<Provider> {
  return serializeProvider(await loadProvider(ctx, input.id), input.origin);
}

/** Deleting the receiver stops it at once (its token answers 404) and drops its notification log. */
export async function deleteProvider({ db, actor }: MemberCtx, id: string): Promise<void> {
  await inTenantTransaction(db, actor.tenantId, async (tx) => {
    const gone = await tx
      .delete(providerSettings)
      .where(and(eq(providerSettings.id, id), eq(providerSettings.tenantId, actor.tenantId)))
      .returning({ id: providerSettings.id });
    if (gone.length === 0) throw notFound(`Provider ${id} not found.`);
  });
}

/** `GET /api/v1/settings/providers/{id}/notifications`: newest first, what arrived and what it did. */
export async function listProviderNotifications(
  ctx: MemberCtx,
  { id, query }: { id: string; query: ListNotificationsQueryInput },
): Promise<z.infer<typeof ProviderNotificationPageSchema>> {
  const p = await loadProvider(ctx, id);
  const where = and(
    eq(providerNotifications.tenantId, ctx.actor.tenantId),
    eq(providerNotifications.providerId, p.id),
    query.status ? eq(providerNotifications.status, query.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(providerNotifications)
      .where(where)
      .orderBy(desc(providerNotifications.seq))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ total: count() }).from(providerNotifications).where(where),
  ]);
  return { items: rows.map(serializeNotification), total, page: query.page, pageSize: query.pageSize };
}
