import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { createMember, listMembers } from "@/lib/tenants/members";

export const GET = apiRoute(async ({ db, actor }) => json(await listMembers(db, actor)));

export const POST = apiRoute(async ({ req, db, actor }) => json(await createMember(db, actor, await readJson(req)), 201));
