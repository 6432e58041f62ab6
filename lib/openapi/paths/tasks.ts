import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateTaskSchema, DeletedTaskSchema, ListTasksQuery, TaskPageSchema, TaskSchema, UpdateTaskSchema } from "../../tasks/schemas";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

const ListTasksQueryDoc = ListTasksQuery.extend({
  page: ListTasksQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListTasksQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50).",
  }),
});

const ACCESS =
  "**Access.** As for deals: a broad key of an `owner`, `admin` or `manager` member sees and changes every task of the " +
  "tenant; a `restricted` key, and any key of a `broker` member, sees tasks assigned to or created by its member and the " +
  "tasks of deals it can see; any other task answers 404 (as does any id of another tenant). Such a key can assign tasks " +
  "only to its own member (403 otherwise).";

const FIELDS =
  "**Fields.** `type` is one of `visit`, `call`, `follow_up`, `meeting`, `email`, `message`, `document`, `other`; " +
  "`status` is `open` (default), `done` or `cancelled`. `dealId` must be a deal of the tenant the key can see, " +
  "`listingId` a listing of the tenant, `assigneeId` an active member (each else 400). `dueAt` is an ISO 8601 " +
  "date-time with offset, returned in UTC. Without `assigneeId`, a task of a deal goes to the deal's responsible " +
  "member, any other to the key's member. Visit tasks that lead intake creates for a lead's requested visit live here too " +
  "(`createdById` null).";

const EVENTS =
  "**Events.** `task.created`, `task.updated` (the previous row in `data.old`) and `task.deleted`, written in the " +
  "same transaction: `data.entityType` `task`, `data.entityId` the task id, `data.data` the task row with `taskId` " +
  "(`taskId`, `title`, `type`, `dealId`, `listingId`, `assigneeId`, `dueAt`, `status`, `notes`, `createdById`, " +
  "`createdAt`, `updatedAt`). An update that changes nothing writes no event.";

const NOT_FOUND = "No such task in the tenant, or (restricted keys) one the key's member cannot see (`not_found`).";
const taskId = uuidParam("id", "task");

export function registerTaskPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/tasks",
    tags: ["Tasks"],
    operationId: "listTasks",
    summary: "List tasks",
    description:
      "Tasks ordered by `dueAt` (tasks without a due date last), then creation. Filters combine with AND: `dealId`, " +
      "`listingId`, `assigneeId`, `status`, `type`, and the due range `dueFrom` (inclusive) to `dueTo` (exclusive); " +
      `\`dueTo\` not after \`dueFrom\` is a 400. Unknown parameters are a 400.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { query: ListTasksQueryDoc },
    responses: {
      200: ok("One page of tasks.", TaskPageSchema),
      ...errors({ 400: "Invalid query (`invalid_request` with `issues`).", 401: UNAUTHORIZED_KEY }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/tasks",
    tags: ["Tasks"],
    operationId: "createTask",
    summary: "Create a task",
    description: `Required: \`title\` and \`type\`.\n\n${FIELDS}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: CreateTaskSchema,
            example: { title: "Ligar para Paula", type: "call", dealId: "3fa85f64-5717-4562-b3fc-2c963f66afa6", dueAt: "2026-12-01T14:00:00-03:00" },
          },
        },
      },
    },
    responses: {
      201: ok("The new task.", TaskSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`), or a `dealId`, `listingId` or `assigneeId` that names nothing usable in the tenant.",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key assigning the task to another member.",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/tasks/{id}",
    tags: ["Tasks"],
    operationId: "getTask",
    summary: "Read one task",
    description: `The task.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: taskId },
    responses: { 200: ok("The task.", TaskSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "patch",
    path: "/api/v1/crm/tasks/{id}",
    tags: ["Tasks"],
    operationId: "updateTask",
    summary: "Change a task",
    description: `The fields to change, at least one; \`null\` clears an optional field.\n\n${FIELDS}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: { params: taskId, body: { required: true, content: { "application/json": { schema: UpdateTaskSchema, example: { status: "done" } } } } },
    responses: {
      200: ok("The task after the change.", TaskSchema),
      ...errors({
        400: "Invalid or empty body, or a reference that names nothing usable in the tenant.",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key assigning the task to another member.",
        404: NOT_FOUND,
        409: "A visit booked on a site moved (`dueAt`, `assigneeId`) or reopened onto a time its member already has booked (`slot_taken`).",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "delete",
    path: "/api/v1/crm/tasks/{id}",
    tags: ["Tasks"],
    operationId: "deleteTask",
    summary: "Delete a task",
    description: `Deletes the task and writes \`task.deleted\` with its last state.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: taskId },
    responses: { 200: ok("The task was deleted.", DeletedTaskSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
}
