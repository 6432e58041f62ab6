import { and, count, desc, eq, sql } from "drizzle-orm";
import { onDealStageChanged } from "../agents/triggers";
import type { DbOrTx } from "../../db/client";
import { deals, marketingChannelInstances, type DealRow } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import { eventUserId, type Actor, type MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { forbidden, invalid, notFound } from "../errors/domain-errors";
import { recordEvent, recordEvents, type NewEvent } from "../outbox/record-event";
import type { z } from "zod";
import { loadTenant } from "../tenants/load-tenant";
import type { TenantSettings } from "../tenants/settings-schema";
import { stableJson } from "../util/stable-json";
import { resolveAssignee } from "./assignment";
import { addContacts, contactsOfDeals, linkContacts, resolveContacts } from "../contacts/resolve-contacts";
import { validateCustom } from "./custom-data";
import { nextInQueue } from "../leads/distribution";
import type { ListDealsQueryInput } from "./list-query";
import { CreateDealSchema, UpdateDealSchema, type CreateDealInput, type DealDataInput } from "./schemas";
import {
  dealEventEntity,
  serializeDeal,
  type ContactWithRole,
  type Deal,
  type DealDetailSchema,
  type DealPageSchema,
  type DeletedDealSchema,
} from "./serialize";
import { interestsOfDeal } from "../visitors/deal-interests";
import { savedSearchesOfDeal } from "../saved-searches/of-deal";
import { inTenantTransaction } from "../../db/transaction";
import { dealAccessWhere } from "./access";

const accessWhere = dealAccessWhere;

export async function listDeals({ db, actor }: MemberCtx, q: ListDealsQueryInput): Promise<z.infer<typeof DealPageSchema>> {
  const where = and(
    eq(deals.tenantId, actor.tenantId),
    accessWhere(actor),
    q.dealType ? eq(deals.dealType, q.dealType) : undefined,
    q.stage ? eq(deals.stage, q.stage) : undefined,
    q.status ? eq(deals.status, q.status) : undefined,
    q.assignedToId ? eq(deals.assignedToId, q.assignedToId) : undefined,
    q.marketingChannelInstanceId ? eq(deals.marketingChannelInstanceId, q.marketingChannelInstanceId) : undefined,
    q.customFilters ? sql`${deals.customData} @> ${JSON.stringify(q.customFilters)}::jsonb` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(deals)
      .where(where)
      .orderBy(desc(deals.createdAt), desc(deals.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(deals).where(where),
  ]);
  const people = await contactsOfDeals(
    db,
    actor.tenantId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => serializeDeal(r, people.get(r.id)!)), total, page: q.page, pageSize: q.pageSize };
}

export async function loadDeal(db: DbOrTx, actor: MemberActor, id: string, forUpdate = false): Promise<{ deal: DealRow; people: ContactWithRole[] }> {
  const q = db
    .select()
    .from(deals)
    .where(and(eq(deals.id, id), eq(deals.tenantId, actor.tenantId), accessWhere(actor)))
    .limit(1);
  const [deal] = forUpdate ? await q.for("update") : await q;
  if (!deal) throw notFound(`Deal ${id} not found.`);
  return { deal, people: (await contactsOfDeals(db, actor.tenantId, [id])).get(id)! };
}

export async function getDeal({ db, actor }: MemberCtx, id: string): Promise<z.infer<typeof DealDetailSchema>> {
  const { deal, people } = await loadDeal(db, actor, id);
  return {
    ...serializeDeal(deal, people),
    interests: await interestsOfDeal(db, actor.tenantId, deal.id),
    savedSearches: await savedSearchesOfDeal(db, actor.tenantId, deal.id),
  };
}

export async function createDeal({ db, actor }: MemberCtx, input: unknown): Promise<Deal> {
  const data = CreateDealSchema.parse(input);
  const { distributed: _distributed, ...deal } = await inTenantTransaction(db, actor.tenantId, (tx) => writeNewDeal(tx, actor, data));
  return deal;
}

/**
 * A new deal with its contacts, assignment and events, inside the caller's tenant transaction, for
 * any actor: a member through the API, or a channel's lead through lead processing (no creator;
 * without a channel queue nobody is assigned).
 */
export async function writeNewDeal(tx: DbOrTx, actor: Actor, data: CreateDealInput, known: KnownRows = {}): Promise<Deal & { distributed: boolean }> {
  const tenant = known.tenant ?? (await loadTenant(tx, actor.tenantId));
  const s = tenant.settings;
  const stage = data.stage ?? s.dealWorkflow.defaultStageId;
  assertDealStage(s, stage);
  const channelId = data.marketingChannelInstanceId;
  if (channelId) checkChannel(channelId, known.channel?.id === channelId ? known.channel : await channelOf(tx, actor.tenantId, channelId));
  const explicit = await resolveAssignee(tx, actor.tenantId, data);
  if (explicit !== undefined && actor.kind === "member") assertMayAssign(actor, explicit);
  const custom = dropNulls(await validateCustom(tx, actor, s, data.custom ?? {}));
  const people = await resolveContacts(tx, actor.tenantId, data.contacts);

  let assignedToId = explicit;
  let distributed = false;
  if (assignedToId === undefined) {
    if (data.marketingChannelInstanceId) {
      assignedToId = await nextInQueue(tx, actor.tenantId, data.marketingChannelInstanceId);
      distributed = assignedToId !== null;
    } else {
      assignedToId = actor.kind === "member" ? actor.userId : null;
    }
  }
  const [deal] = await tx
    .insert(deals)
    .values({
      tenantId: actor.tenantId,
      title: data.title,
      dealType: data.dealType,
      stage,
      status: data.status ?? outcomeOf(s, stage) ?? "open",
      currency: data.currency,
      amount: data.amount ?? null,
      assignedToId,
      createdById: actor.kind === "member" ? actor.userId : null,
      customData: custom,
      utmSource: data.utmSource ?? null,
      utmMedium: data.utmMedium ?? null,
      utmCampaign: data.utmCampaign ?? null,
      source: data.source ?? null,
      campaign: data.campaign ?? null,
      marketingChannelInstanceId: data.marketingChannelInstanceId ?? null,
    })
    .returning();
  const created: NewEvent[] = [dealEvent(actor, "deal.created", deal, { entity: dealEventEntity(deal, people) })];
  if (distributed) {
    created.push({
      tenantId: actor.tenantId,
      eventName: "distribution.assigned",
      entityType: "deal",
      entityId: deal.id,
      userId: null,
      data: { dealId: deal.id, assignedToId, marketingChannelInstanceId: deal.marketingChannelInstanceId, method: "round_robin" },
    });
  }
  // Independent writes of the new deal, sent together (one round trip inside the tenant's lock).
  await Promise.all([addContacts(tx, actor.tenantId, deal.id, people), recordEvents(tx, created)]);
  return { ...serializeDeal(deal, people), distributed };
}

export async function updateDeal({ db, actor }: MemberCtx, { id: pathId, body: input }: { id: string; body: unknown }): Promise<Deal> {
  const { id, data } = UpdateDealSchema.parse(input);
  if (id.toLowerCase() !== pathId) throw invalid(`id: '${id}' differs from the deal id in the path (${pathId}).`);
  if (Object.keys(data).length === 0) throw invalid("data: send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const { deal: current, people: currentPeople } = await loadDeal(tx, actor, pathId, true);
    const next = await applyData(tx, actor, tenant.settings, current, data);
    const people = data.contacts ? await resolveContacts(tx, actor.tenantId, data.contacts) : currentPeople;
    const unchanged =
      Object.entries(next).every(([k, v]) => stableJson(current[k as keyof DealRow]) === stableJson(v)) &&
      stableJson(dealEventEntity(current, people).contacts) === stableJson(dealEventEntity(current, currentPeople).contacts);
    // Resending the same values writes nothing and notifies nobody.
    if (unchanged) return serializeDeal(current, currentPeople);
    const [deal] = await tx
      .update(deals)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(deals.id, current.id), eq(deals.tenantId, actor.tenantId)))
      .returning();
    if (data.contacts) await linkContacts(tx, actor.tenantId, deal.id, people);
    await recordEvent(tx, dealEvent(actor, "deal.updated", deal, { entity: dealEventEntity(deal, people) }, dealEventEntity(current, currentPeople)));
    // Agents whose trigger is `deal_stage_changed` (not for an agent's own change: no loops).
    if (deal.stage !== current.stage && !actor.agentId) await onDealStageChanged(tx, actor.tenantId, deal.id, deal.stage, deal.updatedAt);
    return serializeDeal(deal, people);
  });
}

export async function deleteDeal({ db, actor }: MemberCtx, id: string): Promise<z.infer<typeof DeletedDealSchema>> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { deal, people } = await loadDeal(tx, actor, id, true);
    await tx.delete(deals).where(and(eq(deals.id, deal.id), eq(deals.tenantId, actor.tenantId)));
    await recordEvent(tx, dealEvent(actor, "deal.deleted", deal, { entity: dealEventEntity(deal, people) }));
    return { id: deal.id, deleted: true as const };
  });
}

/** Column values after a PATCH `data`; `custom` merges key by key and `null` removes a key. */
async function applyData(tx: DbOrTx, actor: MemberActor, s: TenantSettings, current: DealRow, data: DealDataInput): Promise<Partial<DealRow>> {
  const next: Partial<DealRow> = {};
  if (data.stage !== undefined) {
    assertDealStage(s, data.stage);
    next.stage = data.stage;
    // A stage with an outcome sets it; leaving such a stage for an open one reopens the deal.
    if (data.status === undefined && data.stage !== current.stage) {
      next.status = outcomeOf(s, data.stage) ?? (outcomeOf(s, current.stage) ? "open" : current.status);
    }
  }
  for (const k of ["title", "dealType", "status", "currency", "amount", "utmSource", "utmMedium", "utmCampaign", "source", "campaign"] as const) {
    if (data[k] !== undefined) (next as Record<string, unknown>)[k] = data[k];
  }
  if (data.marketingChannelInstanceId !== undefined) {
    if (data.marketingChannelInstanceId) await assertChannel(tx, actor.tenantId, data.marketingChannelInstanceId);
    next.marketingChannelInstanceId = data.marketingChannelInstanceId;
  }
  const assignee = await resolveAssignee(tx, actor.tenantId, data);
  if (assignee !== undefined) {
    assertMayAssign(actor, assignee);
    next.assignedToId = assignee;
  }
  if (data.custom !== undefined) {
    next.customData = dropNulls({ ...current.customData, ...(await validateCustom(tx, actor, s, data.custom)) });
  }
  return next;
}

function assertDealStage(s: TenantSettings, stage: string) {
  if (!s.dealWorkflow.stages.some((st) => st.id === stage)) {
    throw invalid(`stage: '${stage}' is not a deal stage of this tenant (one of: ${s.dealWorkflow.stages.map((st) => st.id).join(", ")}).`);
  }
}

/** Reaching `ganho` means won and `perdido` lost, unless a status is sent with the stage. */
function outcomeOf(s: TenantSettings, stage: string): "won" | "lost" | undefined {
  return s.dealWorkflow.stages.find((st) => st.id === stage)?.outcome ?? undefined;
}

/** Like properties: a restricted key keeps deals with its own member. */
export function assertMayAssign(actor: MemberActor, assignee: string | null) {
  if (actor.access === "restricted" && assignee !== actor.userId) {
    throw forbidden("assignedToId: a restricted key can assign deals only to its own member.");
  }
}

/** Rows a caller already read in this transaction (lead processing), so the deal write does not read them again. */
export type KnownRows = { tenant?: TenantRow; channel?: { id: string; tenantId: string; active: boolean } };

async function assertChannel(tx: DbOrTx, tenantId: string, id: string) {
  checkChannel(id, await channelOf(tx, tenantId, id));
}

async function channelOf(tx: DbOrTx, tenantId: string, id: string) {
  const [c] = await tx
    .select({ id: marketingChannelInstances.id, tenantId: marketingChannelInstances.tenantId, active: marketingChannelInstances.active })
    .from(marketingChannelInstances)
    .where(and(eq(marketingChannelInstances.id, id), eq(marketingChannelInstances.tenantId, tenantId)))
    .limit(1);
  return c;
}

function checkChannel(id: string, c: KnownRows["channel"] | undefined) {
  if (!c) throw invalid(`marketingChannelInstanceId: no marketing channel ${id} in this tenant.`);
  if (!c.active) throw invalid(`marketingChannelInstanceId: marketing channel ${id} is inactive; activate it in settings first.`);
}

function dropNulls(o: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

export function dealEvent(
  actor: Actor,
  eventName: "deal.created" | "deal.updated" | "deal.deleted",
  deal: DealRow,
  data: Record<string, unknown>,
  old: Record<string, unknown> | null = null,
) {
  return { tenantId: actor.tenantId, eventName, entityType: "deal", entityId: deal.id, userId: eventUserId(actor), data, old };
}
