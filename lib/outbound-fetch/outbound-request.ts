import type { IncomingHttpHeaders } from "node:http";
import { request, type Dispatcher } from "undici";
import { agentFor, type OutboundPurpose } from "./agents";
import { hostRefusal } from "./guarded-lookup";
import { OutboundError, REFUSED_CODE } from "./outbound-error";
import { readCapped } from "./read-body";

export type OutboundOptions = {
  /** Which keep-alive pool carries the request. */
  purpose: OutboundPurpose;
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange (every hop and the answer's body) ends by then. */
  timeoutMs: number;
  /** The caller's own budget, if it has one; whichever ends first stops the request. */
  signal?: AbortSignal;
  maxBytes: number;
  /** `error` (default) fails an answer past `maxBytes`; `truncate` keeps its first `maxBytes`. */
  overLimit?: "error" | "truncate";
  /** Redirects followed, each hop checked like the first (0 to 3; default 0: a 3xx is the answer). */
  maxRedirects?: number;
};

export type OutboundResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer; truncated: boolean; url: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function httpUrl(raw: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundError(base ? "redirect" : "invalid_url", base ? `redirect to an invalid address: ${String(raw).slice(0, 200)}` : "not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundError(
      base ? "redirect" : "invalid_url",
      base ? `redirect to a ${url.protocol} address not followed` : `${url.protocol} URLs are not fetched`,
    );
  }
  return url;
}

/** The refusal the lookup guard raised inside undici's connect, wherever undici wrapped it. */
function refusalIn(err: unknown): OutboundError | null {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (e instanceof OutboundError) return e;
    if (e.code === REFUSED_CODE) return new OutboundError("refused", (e as Error).message, REFUSED_CODE);
  }
  return null;
}

function failure(err: unknown, deadline: AbortSignal, caller: AbortSignal | undefined, timeoutMs: number): OutboundError {
  if (err instanceof OutboundError || refusalIn(err)) return networkFailure(err);
  if (deadline.aborted) return new OutboundError("timeout", `no complete answer within ${timeoutMs} ms`, "ETIMEDOUT");
  if (caller?.aborted) return new OutboundError("timeout", "the caller's budget ran out", "EABORTED");
  return networkFailure(err);
}

/** What undici threw, as an `OutboundError`: the guard's refusal wherever undici wrapped it, else a network error. */
export function networkFailure(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const refusal = refusalIn(err);
  if (refusal) return refusal;
  const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
  return new OutboundError("network", `${e.cause?.code ?? e.code ?? e.name}: ${e.cause?.message ?? e.message}`, e.cause?.code ?? e.code ?? null);
}

/**
 * The one way the service calls a URL that a tenant or visitor controls (webhooks, messaging
 * gateways, the geocoder, preview images). Outside `privateTargetsAllowed()` it never connects to
 * a loopback, private, link-local, CGNAT, metadata or otherwise non-public address: IP literals and
 * `localhost` are refused here, names by the lookup of the purpose's pool, which checks every
 * address a name resolves to and hands those same addresses to the socket. Redirects are not
 * followed unless asked (at most 3), and each hop goes through the same checks. The answer's size
 * and the whole exchange's time are capped. Throws `OutboundError`.
 */
export async function outboundRequest(raw: string | URL, o: OutboundOptions): Promise<OutboundResponse> {
  const maxRedirects = Math.max(0, Math.min(3, Math.floor(o.maxRedirects ?? 0)));
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([deadline, o.signal]) : deadline;
  let url = httpUrl(raw);
  let method: Dispatcher.HttpMethod = o.method ?? "GET";
  let body = o.body;
  let headers = { ...o.headers };
  for (let hop = 0; ; hop++) {
    const early = hostRefusal(url.hostname);
    if (early) throw early;
    try {
      const res = await request(url, { method, headers, body, dispatcher: agentFor(o.purpose), signal });
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && typeof location === "string" && hop < maxRedirects) {
        await res.body.dump().catch(() => {});
        const next = httpUrl(location, url);
        // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
        }
        // Credentials meant for one origin are not handed to another.
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie)$/i.test(k)));
        url = next;
        continue;
      }
      const { bytes, truncated } = await readCapped(res.body, o.maxBytes, o.overLimit ?? "error", res.statusCode);
      return { status: res.statusCode, headers: res.headers, body: bytes, truncated, url: url.toString() };
    } catch (err) {
      throw failure(err, deadline, o.signal, o.timeoutMs);
    }
  }
}
