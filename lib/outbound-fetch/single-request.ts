import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { privateTargetsAllowed } from "./address-policy";
import { agentFor, type OutboundPurpose } from "./agents";
import { hostRefusal } from "./guarded-lookup";
import { OutboundError } from "./outbound-error";
import { networkFailure, type OutboundResponse } from "./outbound-request";

export type SingleRequestOptions = {
  purpose: OutboundPurpose;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange (connect, request, answer and its body) ends by then. */
  timeoutMs: number;
  /** The answer is read up to this many bytes and the rest is left unread (`truncated`). */
  maxBytes: number;
};

type Target = {
  origin: string;
  path: string;
  hostname: string;
  href: string;
  /** The private-targets setting under which the host was found allowed (checked once, not per request). */
  allowedWith?: boolean;
};

/** Parsed URLs by their text: a webhook goes to the same URL event after event. */
const targets = new Map<string, Target>();
const MAX_TARGETS = 1000;

function target(raw: string): Target {
  let t = targets.get(raw);
  if (t) return t;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("invalid_url", "not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundError("invalid_url", `${url.protocol} URLs are not fetched`);
  t = { origin: url.origin, path: `${url.pathname}${url.search}`, hostname: url.hostname, href: url.toString() };
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, t);
  return t;
}

/**
 * One request, no redirect followed (a 3xx is the answer), its answer read up to `maxBytes`: what
 * webhook delivery needs, thousands of times a second. The same guard as `outboundRequest` (IP
 * literals and `localhost` checked here, names by the purpose pool's connect-time lookup, on every
 * new connection), through the same keep-alive pool, but on undici's dispatcher directly: no
 * response stream, no abort signal, one timer. Throws `OutboundError`.
 */
export function singleRequest(raw: string, o: SingleRequestOptions): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let t: Target;
    try {
      t = target(raw);
      // The check depends on the host and the setting only: repeated only if the setting changed.
      const allowPrivate = privateTargetsAllowed();
      if (t.allowedWith !== allowPrivate) {
        const early = hostRefusal(t.hostname);
        if (early) throw early;
        t.allowedWith = allowPrivate;
      }
    } catch (err) {
      reject(err);
      return;
    }
    let controller: Dispatcher.DispatchController | null = null;
    let timedOut = false;
    let done = false;
    const finish = (err: unknown, res?: OutboundResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (res) resolve(res);
      else reject(timedOut ? new OutboundError("timeout", `no complete answer within ${o.timeoutMs} ms`, "ETIMEDOUT") : networkFailure(err));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      const err = new OutboundError("timeout", `no complete answer within ${o.timeoutMs} ms`, "ETIMEDOUT");
      if (controller && !controller.aborted) controller.abort(err);
      finish(err);
    }, o.timeoutMs);
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const answer = () => ({ status, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), truncated, url: t.href });
    agentFor(o.purpose).dispatch(
      { origin: t.origin, path: t.path, method: o.method, headers: o.headers, body: o.body },
      {
        onRequestStart(c) {
          controller = c;
          if (done) c.abort(new OutboundError("timeout", `no complete answer within ${o.timeoutMs} ms`, "ETIMEDOUT"));
        },
        onResponseStart(_c, statusCode, h) {
          // 1xx answers are informational: the real one follows.
          if (statusCode < 200) return;
          status = statusCode;
          headers = h;
        },
        onResponseData(c, chunk) {
          if (truncated) return;
          size += chunk.length;
          if (size <= o.maxBytes) {
            chunks.push(chunk);
            return;
          }
          chunks.push(chunk.subarray(0, chunk.length - (size - o.maxBytes)));
          truncated = true;
          // Enough is read: the answer stands, the connection (with its unread rest) is closed.
          finish(null, answer());
          c.abort(new OutboundError("too_large", "answer read up to its limit"));
        },
        onResponseEnd() {
          finish(null, answer());
        },
        onResponseError(_c, err) {
          finish(err);
        },
      },
    );
  });
}
