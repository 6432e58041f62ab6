import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { distributionQueueMembers, marketingChannelInstances, members, type MarketingChannelInstanceRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { inTenantTransaction } from "../../db/transaction";
import { itemsSchema } from "../schemas/paging";
import { hashToken, newChannelSecret, newFeedToken, newPathToken } from "./channel-tokens";
import { FeedCriteriaSchema } from "./feeds/feed-criteria";
import { FirstContactInputSchema, FirstContactSchema, firstContactToStore, storedFirstContact } from "./first-contact/settings";

const QueueSchema = z
  .array(z.uuid().transform((id) => id.toLowerCase()))
  .max(200)
  .refine((l) => new Set(l).size === l.length, "must not repeat a member")
  .meta({ description: "Member ids of the distribution queue, in round-robin order." });

const DestinationsSchema = z
  .strictObject({ deal: z.boolean(), listing: z.boolean() })
  .meta({ description: "What inbound leads may create: deals (buyer or tenant leads, on by default) and draft listings (owner capture, off)." });
const LeadIntakeConfigSchema = z
  .strictObject({ syncResponse: z.boolean() })
  .meta({ description: "`syncResponse`: answer inbound leads after the deal exists, as `sync=deal` does." });
export const CreateChannelSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    kind: z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,40}$/, "must be a lowercase slug such as website or portal")
      .default("api"),
    active: z.boolean().default(true),
    queue: QueueSchema.default([]),
    destinations: DestinationsSchema.default({ deal: true, listing: false }),
    leadIntakeConfig: LeadIntakeConfigSchema.default({ syncResponse: false }),
    feedCriteria: FeedCriteriaSchema.default({}),
    firstContact: FirstContactInputSchema.nullable().default(null).meta({ description: "The automatic first message to each new lead (`null`: none)." }),
  })
  .meta({ id: "CreateMarketingChannel" });

const KindSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9_]{1,40}$/, "must be a lowercase slug such as website or portal");

export const UpdateChannelSchema = z
  .strictObject({
    name: CreateChannelSchema.shape.name,
    kind: KindSchema,
    active: z.boolean(),
    queue: QueueSchema,
    destinations: DestinationsSchema,
    leadIntakeConfig: LeadIntakeConfigSchema,
    feedCriteria: FeedCriteriaSchema,
    firstContact: FirstContactInputSchema.nullable(),
  })
  .partial()
  .meta({ id: "UpdateMarketingChannel" });

export const ChannelSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.string(),
    active: z.boolean(),
    queue: z.array(z.uuid()),
    pathToken: z.string().meta({ description: "The inbound webhook is `POST /api/webhooks/channels/{pathToken}`." }),
    hasSecret: z.boolean().meta({ description: "Whether inbound leads must be signed (the secret itself is never shown again)." }),
    destinations: DestinationsSchema,
    leadIntakeConfig: LeadIntakeConfigSchema,
    feedCriteria: z.record(z.string(), z.unknown()),
    firstContact: FirstContactSchema.nullable(),
    feedToken: z
      .string()
      .optional()
      .meta({ description: "The Bearer token of the feeds and the buildings import: only in the answer that creates or rotates it." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MarketingChannel" });

export type Channel = z.infer<typeof ChannelSchema>;

/** `listChannels`. */
export const ChannelListSchema = itemsSchema(ChannelSchema, "MarketingChannelList");

/** `setChannelSecret`: the secret, shown only in this answer. */
export const ChannelSecretSchema = z.object({ id: z.uuid(), secret: z.string() });

export async function listChannels({ db, actor }: MemberCtx): Promise<z.infer<typeof ChannelListSchema>> {
  const rows = await db
    .select()
    .from(marketingChannelInstances)
    .where(eq(marketingChannelInstances.tenantId, actor.tenantId))
    .orderBy(asc(marketingChannelInstances.createdAt));
  return { items: await Promise.all(rows.map((r) => present(db, r))) };
}

export async function createChannel({ db, actor }: MemberCtx, input: unknown): Promise<Channel> {
  const data = CreateChannelSchema.parse(input);
  const feedToken = newFeedToken();
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const firstContact = data.firstContact ? await firstContactToStore(tx, actor, data.firstContact) : null;
    const [row] = await tx
      .insert(marketingChannelInstances)
      .values({
        tenantId: actor.tenantId,
        name: data.name,
        kind: data.kind,
        active: data.active,
        pathToken: newPathToken(),
        feedTokenHash: hashToken(feedToken),
        destinations: data.destinations,
        leadIntakeConfig: data.leadIntakeConfig,
        feedCriteria: data.feedCriteria,
        firstContact,
      })
      .returning();
    await setQueue(tx, actor.tenantId, row.id, data.queue);
    return { ...(await present(tx, row)), feedToken };
  });
}

export async function updateChannel({ db, actor }: MemberCtx, { id, body: input }: { id: string; body: unknown }): Promise<Channel> {
  const { queue, firstContact: fc, ...data } = UpdateChannelSchema.parse(input);
  if (queue === undefined && fc === undefined && Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const firstContact = fc === undefined ? {} : { firstContact: fc ? await firstContactToStore(tx, actor, fc) : null };
    const [row] = await tx
      .update(marketingChannelInstances)
      .set({ ...data, ...firstContact, updatedAt: new Date() })
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
  await tx
    .delete(distributionQueueMembers)
    .where(and(eq(distributionQueueMembers.tenantId, tenantId), eq(distributionQueueMembers.channelInstanceId, channelId)));
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
    pathToken: row.pathToken,
    hasSecret: row.secret !== null,
    destinations: row.destinations,
    leadIntakeConfig: row.leadIntakeConfig,
    feedCriteria: row.feedCriteria,
    firstContact: storedFirstContact(row.firstContact),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function updateRow(db: DbOrTx, tenantId: string, id: string, set: Partial<MarketingChannelInstanceRow>): Promise<MarketingChannelInstanceRow> {
  const [row] = await db
    .update(marketingChannelInstances)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(marketingChannelInstances.id, id), eq(marketingChannelInstances.tenantId, tenantId)))
    .returning();
  if (!row) throw notFound(`Marketing channel ${id} not found.`);
  return row;
}

/** `POST .../{id}/path-token`: a new inbound path; the old one answers 404 from now on. */
export async function rotatePathToken({ db, actor }: MemberCtx, id: string): Promise<Channel> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => present(tx, await updateRow(tx, actor.tenantId, id, { pathToken: newPathToken() })));
}

/** `POST .../{id}/feed-token`: a new feeds token, returned once. */
export async function rotateFeedToken({ db, actor }: MemberCtx, id: string): Promise<Channel> {
  const feedToken = newFeedToken();
  return inTenantTransaction(db, actor.tenantId, async (tx) => ({
    ...(await present(tx, await updateRow(tx, actor.tenantId, id, { feedTokenHash: hashToken(feedToken) }))),
    feedToken,
  }));
}

export const SetSecretSchema = z
  .strictObject({
    secret: z
      .string()
      .min(16, "must be at least 16 characters")
      .max(200)
      .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces"),
  })
  .partial()
  .meta({ id: "SetChannelSecret" });

/**
 * `POST .../{id}/secret`: generated (empty body) or taken from `{secret}`; returned this once.
 * From now on inbound leads must carry it (Bearer) or sign the body with it (HMAC-SHA256).
 */
export async function setChannelSecret({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<z.infer<typeof ChannelSecretSchema>> {
  const data = SetSecretSchema.parse(body ?? {});
  const secret = data.secret ?? newChannelSecret();
  await inTenantTransaction(db, actor.tenantId, (tx) => updateRow(tx, actor.tenantId, id, { secret }));
  return { id, secret };
}

/** `DELETE .../{id}/secret`: inbound leads are accepted unsigned again. */
export async function clearChannelSecret({ db, actor }: MemberCtx, id: string): Promise<Channel> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => present(tx, await updateRow(tx, actor.tenantId, id, { secret: null })));
}
