import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createChannel, listChannels } from "@/lib/leads/marketing-channels";

export const GET = apiRoute(async ({ db, actor }) => json(await listChannels(db, actor)));

export const POST = apiRoute(async ({ req, db, actor }) => json(await createChannel(db, actor, await readJson(req)), 201));
