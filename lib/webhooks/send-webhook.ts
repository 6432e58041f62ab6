import { Agent, request } from "undici";
import ipaddr from "ipaddr.js";
import { guardedLookup, isPublicAddress, privateTargetsAllowed } from "./url-guard";

export type SendResult = { statusCode: number | null; error: string | null; durationMs: number; responseExcerpt: string | null };

const g = globalThis as unknown as { __crmWebhookAgent?: Agent };

/** One keep-alive pool per process; every connection goes through the private-address guard. */
function agent(): Agent {
  g.__crmWebhookAgent ??= new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000, connections: 256 });
  return g.__crmWebhookAgent;
}

/**
 * POSTs the exact body bytes. Any 2xx is success; anything else, a redirect (never followed),
 * a timeout or a network error is a failure described in `error`.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
  const started = performance.now();
  // An IP literal is connected to without a DNS lookup, so the lookup guard never sees it.
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host) && !privateTargetsAllowed() && !isPublicAddress(host)) {
    return { statusCode: null, error: `EPRIVATEADDRESS: refused: ${host} is a non-public address`, durationMs: 0, responseExcerpt: null };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // undici never follows redirects unless a redirect interceptor is added.
    const res = await request(url, { method: "POST", headers, body, dispatcher: agent(), signal });
    const text = await readExcerpt(res.body, 1000);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      statusCode: res.statusCode,
      error: ok ? null : res.statusCode >= 300 && res.statusCode < 400 ? `redirect to ${res.headers.location ?? "?"} not followed` : `HTTP ${res.statusCode}`,
      durationMs: Math.round(performance.now() - started),
      responseExcerpt: text,
    };
  } catch (err) {
    const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
    const timedOut = signal.aborted || e.name === "TimeoutError";
    const message = timedOut ? `timeout after ${timeoutMs} ms` : `${e.cause?.code ?? e.code ?? e.name}: ${e.cause?.message ?? e.message}`;
    return { statusCode: null, error: message, durationMs: Math.round(performance.now() - started), responseExcerpt: null };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy?: () => void }, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) break;
  }
  // Stop reading a huge answer: the log keeps an excerpt only.
  if (size >= max) body.destroy?.();
  const text = Buffer.concat(chunks).toString("utf8").slice(0, max);
  return text || null;
}
