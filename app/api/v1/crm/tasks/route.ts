import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { ListTasksQuery } from "@/lib/tasks/schemas";
import { createTask, listTasks } from "@/lib/tasks/tasks";

export const GET = apiRoute(async ({ req, ctx }) => json(await listTasks(ctx, parseQuery(req.url, ListTasksQuery))));

export const POST = apiRoute(async ({ req, ctx }) => json(await createTask(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
