import type { Logger } from "pino";
import { getDb, type Db } from "../../db/client";
import { logger } from "../log/logger";
import { withLogContext } from "../log/log-context";
import { isDraining, trackRequest } from "../server/lifecycle";
import { DB_RETRY_AFTER_SECONDS, translateDbError } from "./db-errors";
import { toErrorResponse } from "./errors";
import { requestIdFrom } from "./request-id";

export type Segment<P> = { params: Promise<P> };
export type RouteCtx<P> = { req: Request; params: P; requestId: string; log: Logger; db: Db };

/** The `finish` of routes whose answers no cache may keep (webhooks, feeds with tokens). */
export function noStore(_req: Request, res: Response): Response {
  res.headers.set("cache-control", "no-store");
  return res;
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

/**
 * Runs a handler with a request id, error mapping and a log line per failure; `finish` adds the
 * surface's headers (private or public) to every answer, errors included. HTTP only: what a
 * write must do after it commits (wake event delivery, push search documents) belongs to its
 * transaction (`db/transaction.ts`), so it happens however the write was made.
 */
export function run<P>(
  req: Request,
  segment: Segment<P> | undefined,
  finish: (req: Request, res: Response) => Response,
  handler: (c: RouteCtx<P>) => Promise<Response>,
): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  // Every line written while answering carries the request id (and the tenant, once known).
  return withLogContext({ reqId: requestId }, () => answer(req, requestId, segment, finish, handler));
}

async function answer<P>(
  req: Request,
  requestId: string,
  segment: Segment<P> | undefined,
  finish: (req: Request, res: Response) => Response,
  handler: (c: RouteCtx<P>) => Promise<Response>,
): Promise<Response> {
  const log = logger();
  const started = performance.now();
  if (isDraining()) {
    const res = json({ error: { code: "unavailable", message: "The server is shutting down; retry the request." } }, 503, {
      "retry-after": "5",
      connection: "close",
    });
    res.headers.set("x-request-id", requestId);
    return finish(req, res);
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
  res.headers.set("x-request-id", requestId);
  return finish(req, res);
}
