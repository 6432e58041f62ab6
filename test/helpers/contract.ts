import fs from "node:fs";
import path from "node:path";
import type { ResponseConfig, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { isGeneratedHandler } from "../../lib/http/method-not-allowed";
import { ErrorSchema } from "../../lib/openapi/common";
import { openApiRegistry } from "../../lib/openapi/document";

/**
 * Every response a test gets from a route handler is checked against the OpenAPI description:
 * the operation the handler serves must document the status, and a JSON body must parse with
 * that status's zod schema (the very objects `lib/openapi` generates the document from) with no
 * field the schema does not name. A drift between code and description fails the test that
 * caught it, with the operation, the status and the zod issues in the message.
 *
 * Tests often call a handler with a dummy path (`"/x"`) and `params`, so the operation is found
 * by the handler's identity: route modules are imported (cheapest candidates first: the ones
 * whose path template fits the request, then those with the same parameter names) until one
 * exports the handler. A wrapper around a handler is found by its request path instead.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app", "api");

/** Deliberately undocumented (as in `test/unit/openapi/openapi.test.ts`): the docs, Inngest, the JSON 404 catch-all. */
const UNDOCUMENTED = new Set(["/api/docs", "/api/docs/openapi.json", "/api/docs/assets/{file}", "/api/inngest", "/api/{path}"]);

export type Operation = { method: string; path: string };
export type RequestFacts = { method: string; url: string; params?: object };
export type ResponseFacts = { status: number; headers: Headers; text: string | null };

type RouteFile = { file: string; template: string; params: string[]; matcher: RegExp; source: string };

let files: RouteFile[] | undefined;
const imported = new Set<string>();
const served = new Map<unknown, Operation[]>();
let operations: Map<string, RouteConfig> | undefined;

/** `app/api/v1/deals/[id]/route.ts` -> `/api/v1/deals/{id}`; route groups dropped. */
function routeFiles(): RouteFile[] {
  if (files) return files;
  files = (fs.readdirSync(API_DIR, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "route.ts")
    .sort()
    .map((rel) => {
      const file = path.join(API_DIR, rel);
      const segments = path
        .relative(path.join(ROOT, "app"), path.dirname(file))
        .split(path.sep)
        .filter((s) => !/^\(.*\)$/.test(s));
      const params: string[] = [];
      const template = segments.map((s) => {
        const m = /^\[\[?(?:\.\.\.)?([^\]]+)\]\]?$/.exec(s);
        if (!m) return s;
        params.push(m[1]);
        return `{${m[1]}}`;
      });
      const pattern = segments
        .map((s) =>
          /^\[\[\.\.\./.test(s) ? "(?:/.*)?" : /^\[\.\.\./.test(s) ? "/.+" : /^\[/.test(s) ? "/[^/]+" : `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
        )
        .join("");
      return { file, template: `/${template.join("/")}`, params: params.sort(), matcher: new RegExp(`^${pattern}/?$`), source: fs.readFileSync(file, "utf8") };
    });
  return files;
}

function documented(): Map<string, RouteConfig> {
  if (!operations) {
    operations = new Map();
    for (const d of openApiRegistry().definitions) if (d.type === "route") operations.set(`${d.route.method.toUpperCase()} ${d.route.path}`, d.route);
  }
  return operations;
}

async function load(f: RouteFile): Promise<void> {
  if (imported.has(f.file)) return;
  imported.add(f.file);
  const mod = (await import(f.file)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== "function" || name !== name.toUpperCase()) continue;
    served.set(value, [...(served.get(value) ?? []), { method: name, path: f.template }]);
  }
}

/** The operation a handler serves, or undefined when neither its identity nor the request path names one. */
export async function operationOf(handler: unknown, req: RequestFacts): Promise<Operation | undefined> {
  const pathname = new URL(req.url, "http://localhost").pathname;
  const params = Object.keys(req.params ?? {})
    .sort()
    .join(",");
  const method = req.method.toUpperCase();
  const score = (f: RouteFile) => (f.matcher.test(pathname) ? 0 : f.params.join(",") === params ? (new RegExp(`\\b${method}\\b`).test(f.source) ? 1 : 2) : 3);
  const pick = (ops: Operation[]) => {
    const best = (op: Operation) => routeFiles().find((f) => f.template === op.path);
    return [...ops].sort((a, b) => score(best(a)!) - score(best(b)!))[0];
  };
  if (served.has(handler)) return pick(served.get(handler)!);
  const candidates = routeFiles()
    .filter((f) => !imported.has(f.file))
    .map((f) => ({ f, s: score(f) }))
    .sort((a, b) => a.s - b.s);
  for (const { f } of candidates) {
    await load(f);
    if (served.has(handler)) return pick(served.get(handler)!);
  }
  // A wrapper around a handler (`(req) => POST(req, {params})`): the request path says which route it is.
  const byPath = routeFiles().filter((f) => f.matcher.test(pathname));
  const exact = byPath.find((f) => !f.template.includes("{")) ?? byPath.find((f) => documented().has(`${method} ${f.template}`));
  return exact ? { method, path: exact.template } : undefined;
}

const mediaType = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

function excerpt(text: string | null): string {
  if (text === null) return "(not read)";
  return text.length > 600 ? `${text.slice(0, 600)}…` : text || "(empty)";
}

/** Keys the body has and the parsed value lost: a field the schema does not name (zod objects strip them). */
function extraKeys(input: unknown, output: unknown, at: string, out: string[]): void {
  if (Array.isArray(input) && Array.isArray(output)) {
    input.forEach((v, i) => {
      extraKeys(v, output[i], at ? `${at}.${i}` : String(i), out);
    });
    return;
  }
  if (!input || !output || typeof input !== "object" || typeof output !== "object" || Array.isArray(input) || Array.isArray(output)) return;
  for (const [k, v] of Object.entries(input)) {
    const where = at ? `${at}.${k}` : k;
    if (!Object.hasOwn(output, k)) out.push(`${where}: not in the documented schema`);
    else extraKeys(v, (output as Record<string, unknown>)[k], where, out);
  }
}

/** The problems of a JSON body against a zod schema: zod's issues, then undocumented fields. */
export function bodyProblems(schema: z.ZodType, body: unknown): string[] {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`);
  const out: string[] = [];
  extraKeys(body, parsed.data, "", out);
  return out;
}

function fail(op: Operation, id: string | undefined, res: ResponseFacts, problems: string[]): never {
  const name = `${op.method} ${op.path}${id ? ` (${id})` : ""}`;
  throw new Error(
    `Response does not match the OpenAPI description (lib/openapi): ${name} answered ${res.status} ${mediaType(res.headers) || "(no content type)"}\n` +
      problems.map((p) => `  - ${p}`).join("\n") +
      `\n  body: ${excerpt(res.text)}`,
  );
}

/** Checks one response of `op` against its documented responses; throws a readable error on a drift. */
export function checkAgainstOperation(op: Operation, res: ResponseFacts, generated = false): void {
  const route = documented().get(`${op.method} ${op.path}`);
  if (!route) {
    // `otherMethods(...)` answers a method the route does not have: a JSON 405, or 204 for OPTIONS.
    if (generated && op.method === "OPTIONS") {
      if (res.status !== 204) fail(op, undefined, res, ["expected 204"]);
      return;
    }
    if (generated) {
      if (res.status !== 405) fail(op, undefined, res, ["a method the route does not have must answer 405"]);
      checkJson(op, undefined, res, ErrorSchema);
      return;
    }
    // A CORS preflight, or HEAD (Next answers it with GET): not operations of the description.
    if (op.method === "OPTIONS" || op.method === "HEAD") return;
    fail(op, undefined, res, ["this operation is not in the description"]);
  }
  const id = route.operationId;
  const documentedStatuses = Object.keys(route.responses);
  const config = route.responses[String(res.status)] as ResponseConfig | undefined;
  if (!config) fail(op, id, res, [`status ${res.status} is not documented (documented: ${documentedStatuses.join(", ")})`]);
  const content = Object.entries(config.content ?? {});
  if (!content.length) {
    if (res.text) fail(op, id, res, ["the description documents no body for this status"]);
    return;
  }
  const type = mediaType(res.headers);
  const match = content.find(([t]) => t.toLowerCase() === type) ?? (isJson(type) ? content.find(([t]) => isJson(t)) : undefined);
  if (!match) fail(op, id, res, [`content type ${type || "(none)"} is not documented (documented: ${content.map(([t]) => t).join(", ")})`]);
  const schema = (match[1] as { schema?: unknown }).schema;
  if (isJson(type) && schema instanceof z.ZodType) checkJson(op, id, res, schema);
}

function checkJson(op: Operation, id: string | undefined, res: ResponseFacts, schema: z.ZodType): void {
  if (res.text === null) return;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail(op, id, res, ["the body is not JSON"]);
  }
  const problems = bodyProblems(schema, body);
  if (problems.length) fail(op, id, res, problems);
}

/**
 * Finds the operation `handler` serves and checks the response against it. Undocumented routes
 * (docs, Inngest, the catch-all) pass; a handler no route exports, called on a path no route
 * has, is an error, since its responses could not be checked.
 */
export async function checkResponse(handler: unknown, req: RequestFacts, res: ResponseFacts): Promise<void> {
  const op = await operationOf(handler, req);
  if (!op) {
    throw new Error(
      `checkResponse: ${req.method} ${req.url}: the handler is not exported by any app/api route.ts and the path matches no route; ` +
        "call a route's handler, or pass its real path, so the response can be checked against the OpenAPI description (`contract: false` only for a handler the test builds itself).",
    );
  }
  if (UNDOCUMENTED.has(op.path)) return;
  checkAgainstOperation(op, res, isGeneratedHandler(handler));
}
