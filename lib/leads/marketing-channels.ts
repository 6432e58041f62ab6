import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../db/client";
import { distributionQueueMembers, marketingChannelInstances, members, type MarketingChannelInstanceRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { inTenantTransaction } from "../../db/transaction";

const QueueSchema = z
  .array(z.uuid().transform((id) => id.toLowerCase()))
  .max(200)
  .refine((l) => new Set(l).size === l.length, "must not repeat a member")
  .meta({ description: "Member ids of the distribution queue, in round-robin order." });

export const CreateChannelSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    kind: z.string().trim().regex(/^[a-z0-9_]{1,40}$/, "must be a lowercase slug such as website or portal").default("api"),
    active: z.boolean().default(true),
    queue: QueueSchema.default([]),
  })
  .meta({ id: "CreateMarketingChannel" });

const KindSchema = z.string().trim().regex(/^[a-z0-9_]{1,40}$/, "must be a lowercase slug such as website or portal");

export const UpdateChannelSchema = z
  .strictObject({ name: CreateChannelSchema.shape.name, kind: KindSchema, active: z.boolean(), queue: QueueSchema })
  .partial()
  .meta({ id: "UpdateMarketingChannel" });

export const ChannelSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.string(),
    active: z.boolean(),
    queue: z.array(z.uuid()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MarketingChannel" });

export type Channel = z.infer<typeof ChannelSchema>;

export async function listChannels({ db, actor }: MemberCtx): Promise<{ items: Channel[] }> {
  const rows = await db
    .select()
    .from(marketingChannelInstances)
    .where(eq(marketingChannelInstances.tenantId, actor.tenantId))
    .orderBy(asc(marketingChannelInstances.createdAt));
  return { items: await Promise.all(rows.map((r) => present(db, r))) };
}

export async function createChannel({ db, actor }: MemberCtx, input: unknown): Promise<Channel> {
  const data = CreateChannelSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .insert(marketingChannelInstances)
      .values({ tenantId: actor.tenantId, name: data.name, kind: data.kind, active: data.active })
      .returning();
    await setQueue(tx, actor.tenantId, row.id, data.queue);
    return present(tx, row);
  });
}

export async function updateChannel({ db, actor }: MemberCtx, { id: id, body: input }: { id: string; body: unknown }): Promise<Channel> {
  const { queue, ...data } = UpdateChannelSchema.parse(input);
  if (queue === undefined && Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .update(marketingChannelInstances)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(marketingChannelInstances.id, id), eq(marketingChannelInstances.tenantId, actor.tenantId)))
      .returning();
    if (!row) throw notFound(`Marketing channel ${id} not found.`);
    if (queue) await setQueue(tx, actor.tenantId, id, queue);
    return present(tx, row);
  });
}

async function setQueue(tx: DbOrTx, tenantId: string, channelId: string, memberIds: string[]) {
  if (memberIds.length) {
    const found = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.tenantId, tenantId), inArray(members.id, memberIds)));
    const known = new Set(found.map((m) => m.id));
    const missing = memberIds.find((m) => !known.has(m));
    if (missing) throw invalid(`queue: no member ${missing} in this tenant.`);
  }
  await tx.delete(distributionQueueMembers).where(and(eq(distributionQueueMembers.tenantId, tenantId), eq(distributionQueueMembers.channelInstanceId, channelId)));
  if (memberIds.length) {
    await tx.insert(distributionQueueMembers).values(memberIds.map((memberId, position) => ({ tenantId, channelInstanceId: channelId, memberId, position })));
  }
}

async function present(db: DbOrTx, row: MarketingChannelInstanceRow): Promise<Channel> {
  const queue = await db
    .select({ memberId: distributionQueueMembers.memberId })
    .from(distributionQueueMembers)
    .where(and(eq(distributionQueueMembers.tenantId, row.tenantId), eq(distributionQueueMembers.channelInstanceId, row.id)))
    .orderBy(asc(distributionQueueMembers.position));
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    active: row.active,
    queue: queue.map((q) => q.memberId),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
