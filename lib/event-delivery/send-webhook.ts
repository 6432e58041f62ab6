import { OutboundError } from "../outbound-fetch/outbound-error";
import { singleRequest } from "../outbound-fetch/single-request";

export type SendResult = { statusCode: number | null; error: string | null; durationMs: number; responseExcerpt: string | null };

const EXCERPT_CHARS = 1000;

/**
 * POSTs the exact body bytes through the outbound guard (the webhook pool). Any 2xx is success;
 * anything else, a redirect (never followed), a refused address, a timeout or a network error is a
 * failure described in `error`.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    // The log keeps an excerpt only: a huge answer is not read past 4 bytes a character.
    // No redirect is followed: a signed POST must not be replayed elsewhere.
    const res = await singleRequest(url, { purpose: "webhook", method: "POST", headers, body, timeoutMs, maxBytes: EXCERPT_CHARS * 4 });
    const text = res.body.toString("utf8").slice(0, EXCERPT_CHARS);
    const ok = res.status >= 200 && res.status < 300;
    return {
      statusCode: res.status,
      error: ok ? null : res.status >= 300 && res.status < 400 ? `redirect to ${res.headers.location ?? "?"} not followed` : `HTTP ${res.status}`,
      durationMs: took(),
      responseExcerpt: text || null,
    };
  } catch (err) {
    const e = err instanceof OutboundError ? err : new OutboundError("network", String(err));
    return { statusCode: null, error: e.kind === "timeout" ? `timeout after ${timeoutMs} ms` : e.message, durationMs: took(), responseExcerpt: null };
  }
}
