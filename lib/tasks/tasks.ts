import { and, asc, count, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { deals, members, tasks, type TaskRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { eventUserId, type Actor, type MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { dealAccessWhere } from "../deals/access";
import { forbidden, invalid, notFound } from "../errors/domain-errors";
import { assertListingReadable } from "../listings/readable-listings";
import { recordEvent } from "../outbox/record-event";
import { stableJson } from "../util/stable-json";
import {
  CreateTaskSchema,
  UpdateTaskSchema,
  serializeTask,
  taskEventData,
  type CreateTaskInput,
  type DeletedTaskSchema,
  type ListTasksQueryInput,
  type Task,
  type TaskPageSchema,
} from "./schemas";

/**
 * Row rules as for deals: a broad key sees every task of the tenant; a restricted key (a broker's
 * view) sees tasks assigned to or created by its member, and the tasks of deals it can see.
 */
function accessWhere(actor: MemberActor): SQL | undefined {
  if (actor.access === "broad") return undefined;
  const visibleDeal = sql`${tasks.dealId} in (select d.id from deals d where d.tenant_id = ${actor.tenantId} and (d.assigned_to_id = ${actor.userId} or d.created_by_id = ${actor.userId}))`;
  return or(eq(tasks.assigneeId, actor.userId), eq(tasks.createdById, actor.userId), visibleDeal);
}

export async function listTasks({ db, actor }: MemberCtx, q: ListTasksQueryInput): Promise<z.infer<typeof TaskPageSchema>> {
  if (q.dueFrom && q.dueTo && new Date(q.dueFrom) >= new Date(q.dueTo)) throw invalid("query parameter `dueTo`: must be after `dueFrom`.");
  const where = and(
    eq(tasks.tenantId, actor.tenantId),
    accessWhere(actor),
    q.dealId ? eq(tasks.dealId, q.dealId) : undefined,
    q.listingId ? eq(tasks.listingId, q.listingId) : undefined,
    q.assigneeId ? eq(tasks.assigneeId, q.assigneeId) : undefined,
    q.status ? eq(tasks.status, q.status) : undefined,
    q.type ? eq(tasks.type, q.type) : undefined,
    q.dueFrom ? gte(tasks.dueAt, new Date(q.dueFrom)) : undefined,
    q.dueTo ? lt(tasks.dueAt, new Date(q.dueTo)) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(tasks)
      .where(where)
      .orderBy(sql`${tasks.dueAt} asc nulls last`, asc(tasks.createdAt), asc(tasks.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(tasks).where(where),
  ]);
  return { items: rows.map(serializeTask), total, page: q.page, pageSize: q.pageSize };
}

async function loadTask(db: DbOrTx, actor: MemberActor, id: string, forUpdate = false): Promise<TaskRow> {
  const q = db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.tenantId, actor.tenantId), accessWhere(actor)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw notFound(`Task ${id} not found.`);
  return row;
}

export async function getTask({ db, actor }: MemberCtx, id: string): Promise<Task> {
  return serializeTask(await loadTask(db, actor, id));
}

export async function createTask({ db, actor }: MemberCtx, input: unknown): Promise<Task> {
  const data = CreateTaskSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const deal = data.dealId ? await assertDeal(tx, actor, data.dealId) : null;
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    let assigneeId = data.assigneeId;
    if (assigneeId === undefined) assigneeId = deal?.assignedToId ?? actor.userId;
    else await assertAssignee(tx, actor, assigneeId);
    return serializeTask(await writeNewTask(tx, actor, { ...data, assigneeId }));
  });
}

/**
 * Inserts a task and its `task.created` inside the caller's tenant transaction, for any actor: a
 * member through the API, or the service itself (lead intake's visit tasks). References are
 * trusted here: the API verb checks them first.
 */
export async function writeNewTask(tx: DbOrTx, actor: Actor, data: CreateTaskInput): Promise<TaskRow> {
  const [row] = await tx
    .insert(tasks)
    .values({
      tenantId: actor.tenantId,
      title: data.title,
      type: data.type,
      dealId: data.dealId ?? null,
      listingId: data.listingId ?? null,
      assigneeId: data.assigneeId ?? null,
      dueAt: data.dueAt ? new Date(data.dueAt) : null,
      status: data.status,
      notes: data.notes ?? null,
      createdById: actor.kind === "member" ? actor.userId : null,
    })
    .returning();
  await recordEvent(tx, taskEvent(actor, "task.created", row));
  return row;
}

export async function updateTask({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Task> {
  const data = UpdateTaskSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("body: send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const current = await loadTask(tx, actor, id, true);
    if (data.dealId) await assertDeal(tx, actor, data.dealId);
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    if (data.assigneeId !== undefined) await assertAssignee(tx, actor, data.assigneeId);
    const next: Partial<TaskRow> = {};
    for (const k of ["title", "type", "dealId", "listingId", "assigneeId", "status", "notes"] as const) {
      if (data[k] !== undefined) (next as Record<string, unknown>)[k] = data[k];
    }
    if (data.dueAt !== undefined) next.dueAt = data.dueAt === null ? null : new Date(data.dueAt);
    // The same values again write nothing and notify nobody.
    if (Object.entries(next).every(([k, v]) => stableJson(current[k as keyof TaskRow]) === stableJson(v))) return serializeTask(current);
    const [row] = await tx
      .update(tasks)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(tasks.id, current.id), eq(tasks.tenantId, actor.tenantId)))
      .returning();
    await recordEvent(tx, { ...taskEvent(actor, "task.updated", row), old: taskEventData(current) });
    return serializeTask(row);
  });
}

export async function deleteTask({ db, actor }: MemberCtx, id: string): Promise<z.infer<typeof DeletedTaskSchema>> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const row = await loadTask(tx, actor, id, true);
    await tx.delete(tasks).where(and(eq(tasks.id, row.id), eq(tasks.tenantId, actor.tenantId)));
    await recordEvent(tx, taskEvent(actor, "task.deleted", row));
    return { id: row.id, deleted: true as const };
  });
}

export function taskEvent(actor: Actor, eventName: "task.created" | "task.updated" | "task.deleted", row: TaskRow) {
  return { tenantId: actor.tenantId, eventName, entityType: "task", entityId: row.id, userId: eventUserId(actor), data: taskEventData(row) };
}

async function assertDeal(tx: DbOrTx, actor: MemberActor, dealId: string) {
  const [deal] = await tx
    .select({ id: deals.id, assignedToId: deals.assignedToId })
    .from(deals)
    .where(and(eq(deals.id, dealId), eq(deals.tenantId, actor.tenantId), dealAccessWhere(actor)))
    .limit(1);
  if (!deal) throw invalid(`dealId: no deal ${dealId} in this tenant that this key can see.`);
  return deal;
}

/** An active member of the tenant; a restricted key keeps tasks with its own member, as with deals. */
async function assertAssignee(tx: DbOrTx, actor: MemberActor, assigneeId: string | null) {
  if (assigneeId === null) return;
  const [m] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, assigneeId), eq(members.tenantId, actor.tenantId), eq(members.active, true)))
    .limit(1);
  if (!m) throw invalid(`assigneeId: no active member ${assigneeId} in this tenant.`);
  if (actor.access === "restricted" && assigneeId !== actor.userId) {
    throw forbidden("assigneeId: a restricted key can assign tasks only to its own member.");
  }
}
