import type { Logger } from "pino";
import { getDb, type Db } from "../../db/client";
import { authenticateApiKey, readApiKey } from "../auth/authenticate-key";
import { verifyOperator } from "../auth/operator-token";
import type { MemberActor } from "../context/actor";
import { requirePermission, type Permission } from "../context/permissions";
import { memberCtx, type MemberCtx } from "../context/verb-context";
import { logger } from "../log/logger";
import { toErrorResponse } from "./errors";
import { requestIdFrom } from "./request-id";
import { isDraining, trackRequest } from "../server/lifecycle";
import { DB_RETRY_AFTER_SECONDS, translateDbError } from "./db-errors";

type Segment<P> = { params: Promise<P> };

export type RouteCtx<P> = { req: Request; params: P; requestId: string; log: Logger; db: Db };
/** An `/api/v1` handler gets the verb context of the key's member (`ctx`) to pass to domain verbs. */
export type KeyCtx<P> = RouteCtx<P> & { actor: MemberActor; ctx: MemberCtx };

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

/**
 * Runs a handler with a request id, error mapping and a log line per failure. HTTP only: what a
 * write must do after it commits (wake event delivery, push search documents) belongs to its
 * transaction (`db/transaction.ts`), so it happens however the write was made.
 */
async function run<P>(
  req: Request,
  segment: Segment<P> | undefined,
  handler: (c: RouteCtx<P>) => Promise<Response>,
): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  const log = logger().child({ reqId: requestId });
  const started = performance.now();
  if (isDraining()) {
    const res = json({ error: { code: "unavailable", message: "The server is shutting down; retry the request." } }, 503, { "retry-after": "5", connection: "close" });
    return withStandardHeaders(req, res, requestId);
  }
  const done = trackRequest();
  let res: Response;
  try {
    const params = ((await segment?.params) ?? {}) as P;
    const db = await getDb();
    res = await handler({ req, params, requestId, log, db });
  } catch (raw) {
    const err = translateDbError(raw);
    const mapped = toErrorResponse(err);
    if (mapped) {
      if (mapped.status === 503) log.warn({ err }, "database unreachable");
      else if (mapped.status >= 500) log.error({ err }, "request failed");
      res = json(mapped.body, mapped.status, mapped.status === 503 ? { "retry-after": String(DB_RETRY_AFTER_SECONDS) } : undefined);
    } else {
      log.error({ err, method: req.method, url: req.url }, "unhandled error");
      res = json({ error: { code: "internal_error", message: `Internal error; quote request id ${requestId} when reporting it.` } }, 500);
    }
  } finally {
    done();
  }
  log.info({ method: req.method, path: new URL(req.url).pathname, status: res.status, ms: Math.round(performance.now() - started) }, "request");
  return withStandardHeaders(req, res, requestId);
}

/**
 * Every authenticated answer may carry personal data: no shared or browser cache keeps it. A 401
 * says how to authenticate (RFC 6750), so clients and tools know a Bearer key is expected.
 */
function withStandardHeaders(req: Request, res: Response, requestId: string): Response {
  res.headers.set("x-request-id", requestId);
  res.headers.set("cache-control", "no-store");
  if (res.status === 401 && !res.headers.has("www-authenticate")) {
    const sent = req.headers.has("authorization") || req.headers.has("x-api-key");
    res.headers.set("www-authenticate", sent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"');
  }
  return res;
}

/**
 * An `/api/v1` route: the Bearer API key decides the tenant and the acting member. `permission`
 * is the endpoint's rule (`lib/context/permissions.ts`), checked before the handler runs; without
 * one any member may call it and the domain's row-level access applies.
 */
export function apiRoute<P = Record<string, never>>(
  handler: (c: KeyCtx<P>) => Promise<Response>,
  opts: { allowXApiKey?: boolean; permission?: Permission } = {},
) {
  return (req: Request, segment?: Segment<P>) =>
    run(req, segment, async (c) => {
      const actor = await authenticateApiKey(c.db, readApiKey(req.headers, opts.allowXApiKey));
      if (opts.permission) requirePermission(actor, opts.permission);
      const log = c.log.child({ tenantId: actor.tenantId, userId: actor.userId });
      return handler({ ...c, actor, ctx: memberCtx(c.db, actor), log });
    });
}

/** An `/api/admin` route for the operator of the installation. */
export function operatorRoute<P = Record<string, never>>(handler: (c: RouteCtx<P>) => Promise<Response>) {
  return (req: Request, segment?: Segment<P>) =>
    run(req, segment, async (c) => {
      verifyOperator(req.headers);
      return handler(c);
    });
}
