import { z } from "zod";
import type { TaskRow } from "../../db/schema";
import { PageQuery, deletedSchema, pageSchema } from "../schemas/paging";

export const TASK_TYPES = ["visit", "call", "follow_up", "meeting", "email", "message", "document", "other"] as const;
export const TASK_STATUSES = ["open", "done", "cancelled"] as const;

const IsoDateTime = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601 date-time with offset, e.g. 2026-12-01T14:00:00-03:00." });

const TaskWritable = {
  title: z.string().trim().min(1).max(200),
  type: z.enum(TASK_TYPES),
  dealId: z.uuid().nullable().meta({ description: "A deal of the tenant the key can see." }),
  listingId: z.uuid().nullable().meta({ description: "A listing of the tenant that the key can read (else 400, as for an unknown id)." }),
  assigneeId: z.uuid().nullable().meta({ description: "An active member of the tenant. Default: the deal's responsible member, else the key's member." }),
  dueAt: IsoDateTime.nullable(),
  status: z.enum(TASK_STATUSES),
  notes: z.string().max(5000).nullable(),
};

export const CreateTaskSchema = z
  .strictObject({
    ...TaskWritable,
    dealId: TaskWritable.dealId.optional(),
    listingId: TaskWritable.listingId.optional(),
    assigneeId: TaskWritable.assigneeId.optional(),
    dueAt: TaskWritable.dueAt.optional(),
    status: TaskWritable.status.default("open"),
    notes: TaskWritable.notes.optional(),
  })
  .meta({ id: "TaskCreate" });

export const UpdateTaskSchema = z.strictObject(TaskWritable).partial().meta({ id: "TaskUpdate" });

export const ListTasksQuery = z
  .strictObject({
    ...PageQuery,
    dealId: z.uuid().optional(),
    listingId: z.uuid().optional(),
    assigneeId: z.uuid().optional(),
    status: z.enum(TASK_STATUSES).optional(),
    type: z.enum(TASK_TYPES).optional(),
    dueFrom: IsoDateTime.optional().meta({ description: "Only tasks due at or after this instant." }),
    dueTo: IsoDateTime.optional().meta({ description: "Only tasks due before this instant (exclusive)." }),
  })
  .meta({ id: "ListTasksQuery" });

export type CreateTaskInput = z.infer<typeof CreateTaskSchema>;
export type UpdateTaskInput = z.infer<typeof UpdateTaskSchema>;
export type ListTasksQueryInput = z.infer<typeof ListTasksQuery>;

export const TaskSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    type: z.string().meta({ description: "One of the task types (`visit`, `call`, `follow_up`, ...)." }),
    dealId: z.uuid().nullable(),
    listingId: z.uuid().nullable(),
    assigneeId: z.uuid().nullable(),
    dueAt: z.string().nullable(),
    status: z.enum(TASK_STATUSES),
    notes: z.string().nullable(),
    createdById: z.uuid().nullable().meta({ description: "Null for tasks the service created (a lead's visit)." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Task" });

export type Task = z.infer<typeof TaskSchema>;

/** `listTasks`: one page of tasks. */
export const TaskPageSchema = pageSchema(TaskSchema, "TaskPage");

/** `deleteTask`. */
export const DeletedTaskSchema = deletedSchema("DeletedTask");

export function serializeTask(t: TaskRow): Task {
  return {
    id: t.id,
    title: t.title,
    type: t.type,
    dealId: t.dealId,
    listingId: t.listingId,
    assigneeId: t.assigneeId,
    dueAt: t.dueAt?.toISOString() ?? null,
    status: t.status as Task["status"],
    notes: t.notes,
    createdById: t.createdById,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * `data.data` of `task.*` events: `taskId` plus the task row (the fields lead intake's
 * `task.created` already carried, `taskId`, `type`, `dealId`, `listingId`, `assigneeId`, `dueAt`,
 * keep their names). `task.updated` carries the previous row in `data.old`.
 */
export function taskEventData(t: TaskRow) {
  const { id, ...rest } = serializeTask(t);
  return { taskId: id, ...rest };
}
