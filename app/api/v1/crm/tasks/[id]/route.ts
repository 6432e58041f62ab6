import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { deleteTask, getTask, updateTask } from "@/lib/tasks/tasks";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getTask(ctx, pathId(params.id, "task"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) => json(await updateTask(ctx, { id: pathId(params.id, "task"), body: await readJson(req) })));

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteTask(ctx, pathId(params.id, "task"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
